import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** Keys per account are capped: uncapped, one account made 9,634 keys in 2 s. */
let srv: InProcessServer;
beforeAll(() => {
  srv = startInProcess({ engine: scriptedEngine(), env: { KEYS_PER_ACCOUNT: "5" } });
});
afterAll(() => srv?.stop(100));

test("40 creations at once: exactly KEYS_PER_ACCOUNT succeed, the rest 409 key_limit_reached; a revoked key makes room", async () => {
  const c = new Client(srv);
  await c.signup();
  const answers = await Promise.all(Array.from({ length: 40 }, () => c.req("POST", "/api/console/keys", {})));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 201).length).toBe(5);
  expect(statuses.filter((s) => s === 409).length).toBe(35);
  const refused = answers.find((r) => r.status === 409)!;
  expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("key_limit_reached");
  const { keys } = (await (await c.req("GET", "/api/console/keys")).json()) as { keys: { id: string }[] };
  expect(keys.length).toBe(5);
  expect((await c.req("DELETE", `/api/console/keys/${keys[0]!.id}`)).status).toBe(200);
  expect((await c.req("POST", "/api/console/keys", {})).status).toBe(201);
  expect((await c.req("POST", "/api/console/keys", {})).status).toBe(409);
  // Another account has its own allowance of keys.
  const other = new Client(srv);
  await other.signup();
  expect((await other.req("POST", "/api/console/keys", {})).status).toBe(201);
});
