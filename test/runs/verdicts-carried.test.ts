import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client, query } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";
import { BATTERY_NOTES, type CollectionsServer, fillCollection, startCollectionsServer } from "./collections-server.ts";
import { CONTRADICTED, RECITED, VERDICTS_VERIFICATION, verdictsVerifier } from "./verdicts-verifier.ts";

useLongTimeout();

/**
 * Every verdict the check gives, and a marker it moved (`recited`), reach each place a run is
 * kept and shown again: the envelope, the idempotent retry, the live stream, a rejoined one after
 * the run ended (Last-Event-ID), and the Console's timeline.
 */

let t: CollectionsServer, owner: Client;
beforeAll(async () => {
  t = await startCollectionsServer({}, verdictsVerifier);
  await fillCollection(t.store, "notes", BATTERY_NOTES);
  owner = new Client(t.srv.url);
  await owner.signup();
  t.key = (await owner.createKey()).key;
});
afterAll(() => t?.stop());

type Json = any;
const itemOf = (env: Json, claim: string) =>
  env.sources
    .flatMap((s: Json) => (s.evidence ?? []).map((e: Json) => ({ id: s.id, ...e })))
    .find((e: Json) => e.claim === claim);

describe("verdicts carried to every reader of a run", () => {
  test("envelope, retry, stream, replay after the end, Console timeline", async () => {
    const body = { query: "What limits solid-state batteries?" };
    const env = (await (await query(t.srv.url, t.key, body, { "idempotency-key": "verdicts-1" })).json()) as Json;
    expect(env.status).toBe("ok");
    expect(env.verification).toEqual(VERDICTS_VERIFICATION);
    expect(itemOf(env, CONTRADICTED)).toMatchObject({ id: "S1", verdict: "contradicted" });
    expect(itemOf(env, RECITED)).toMatchObject({ id: "S2", verdict: "supported", recited: true });

    const again = (await (await query(t.srv.url, t.key, body, { "idempotency-key": "verdicts-1" })).json()) as Json;
    expect(again).toEqual(env);

    const live = await readSse(await query(t.srv.url, t.key, body, {}, "/api/query/stream"));
    const final = live.events.at(-1)!.data;
    expect(final.sources.map((s: Json) => s.evidence)).toEqual(env.sources.map((s: Json) => s.evidence));
    const verifying = live.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!;
    expect(verifying.data).toMatchObject(VERDICTS_VERIFICATION);
    expect(verifying.data.message).toEndWith(
      "; 1 contradicted by a quote, 1 marker moved to a source that backs the claim",
    );

    await t.srv.deps.runs.idle();
    const replayed = await readSse(
      await query(t.srv.url, t.key, null, { "last-event-id": `${final.request_id}:1` }, "/api/query/stream"),
    );
    expect(replayed.events.at(-1)!.data).toEqual(final);
    expect(replayed.events.find((e) => e.event === "progress" && e.data.stage === "verifying")!.data).toEqual(
      verifying.data,
    );

    const timeline = (await (await owner.req("GET", `/api/console/runs/${final.request_id}`)).json()) as Json;
    expect(timeline.sources).toEqual(final.sources);
    expect(timeline.verification).toEqual(VERDICTS_VERIFICATION);
    expect(timeline.events.find((e: Json) => e.stage === "verifying")).toMatchObject(VERDICTS_VERIFICATION);
  });
});
