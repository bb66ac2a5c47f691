import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { RunningServer } from "../../src/server/server.ts";
import { createLogger } from "../../src/util/logger.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client, query, startTestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { type AnyStore, backends } from "../store/backends.ts";

useLongTimeout();

/**
 * Text PostgreSQL cannot hold (U+0000, unpaired surrogates) gets the same answer on every
 * backend (docs/decisions/0100-text-a-database-cannot-hold.md): refused at the door when a
 * caller sends it, stored cleaned when it comes from upstream (an answer, a page).
 */

// JSON.stringify writes both as escapes ("\u0000", "\ud800"): what a client's JSON carries.
const NUL = "\u0000";
const LONE = "\ud800";

/** A run's answer with both in it, as a model or a quoted page can produce them. */
const engine = scriptedEngine({ deltas: ["Tides", NUL, " rise", LONE, " [S1]."] });

for (const backend of backends) {
  describe(`text a database cannot hold, on ${backend.name}`, () => {
    let store: AnyStore;
    let srv: RunningServer;
    let owner: Client;
    let key: string;
    beforeAll(async () => {
      store = await backend.open();
      srv = startTestServer({ engine, store, env: { LOG_LEVEL: "error" }, logger: createLogger("error", () => {}) });
      owner = new Client(srv.url);
      await owner.signup();
      key = (await owner.createKey("k")).key;
    });
    afterAll(() => srv?.stop(100));

    const refused = async (res: Response, field: string) => {
      const body = (await res.json()) as { errors: { code: string; message: string }[] };
      expect({ status: res.status, code: body.errors[0]!.code }).toEqual({ status: 400, code: "invalid_request" });
      expect(body.errors[0]!.message).toContain(field);
    };

    test("a question with NUL or an unpaired surrogate is refused as invalid_request, and not counted", async () => {
      await refused(await query(srv.url, key, { query: `What is${NUL} prime editing?` }), "query");
      await refused(await query(srv.url, key, { query: `What is${LONE} prime editing?` }), "query");
      await refused(await owner.req("POST", "/api/v1/research", { query: `base${NUL} editors` }), "query");
      expect(await owner.used()).toBe(0);
    });

    test("a key name, an email, a collection name with NUL: 400, never 500", async () => {
      await refused(await owner.req("POST", "/api/console/keys", { name: `k${NUL}` }), "name");
      await refused(await owner.req("POST", "/api/console/keys", { name: `k${LONE}` }), "name");
      await refused(
        await new Client(srv.url).req("POST", "/api/v1/auth/signup", {
          email: `x${NUL}@example.com`,
          password: "correct horse battery",
        }),
        "email",
      );
      await refused(await owner.req("POST", "/api/console/collections", { name: `notes${NUL}` }), "name");
      // A name in the path is text from the caller too.
      await refused(await owner.req("DELETE", "/api/console/collections/notes%00x"), "path");
      const keys = (await (await owner.req("GET", "/api/console/keys")).json()) as { keys: { name: string }[] };
      expect(keys.keys.map((k) => k.name)).toEqual(["k"]);
    });

    test("an answer with NUL and an unpaired surrogate is stored cleaned: the run finishes and reads back", async () => {
      const res = await query(srv.url, key, { query: "How do tides work?" });
      expect(res.status).toBe(200);
      const { request_id } = (await res.json()) as { request_id: string };
      const run = await owner.req("GET", `/api/console/runs/${request_id}`);
      expect(run.status).toBe(200);
      const body = (await run.json()) as { status: string; answer: string };
      expect({ status: body.status, answer: body.answer }).toEqual({ status: "ok", answer: "Tides rise\ufffd [S1]." });
    });
  });
}
