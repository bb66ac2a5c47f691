import { afterAll, beforeAll, expect, test } from "bun:test";
import { conforms } from "../helpers/documented-answer.ts";
import { type InProcessServer, startInProcess } from "../helpers/in-process.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { Client } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * The keys list answers a page at a time (`?from=` / `next`): the cap counts active keys only,
 * and revoked ones stay listed, so an account that creates and revokes in turn piles up keys
 * without bound, each a row every unpaged list read.
 */

const KEYS = "/api/console/keys";
// The page the OpenAPI document states (KEY_LIST_PAGE in src/contract/console.ts).
const KEY_LIST_PAGE = 100;
const MADE = 2 * KEY_LIST_PAGE + 30;
let srv: InProcessServer;
let c: Client;
beforeAll(async () => {
  srv = startInProcess({ engine: scriptedEngine(), env: { KEYS_PER_ACCOUNT: "10" } });
  c = new Client(srv);
  await c.signup();
  // Create and revoke in turn, under the cap all along.
  for (let i = 0; i < MADE; i++) {
    const made = await c.req("POST", KEYS, { name: `k${i}` });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    if (i < MADE - 3) expect((await c.req("DELETE", `${KEYS}/${id}`)).status).toBe(200);
  }
});
afterAll(() => srv?.stop(100));

type Page = { keys: { id: string; name: string; status: string }[]; next: string | null };

test("each answer holds at most a page and names the next; following next lists every key once, newest first", async () => {
  const seen: Page["keys"] = [];
  let from: string | null = null;
  let pages = 0;
  while (pages === 0 || from !== null) {
    const q: string = from === null ? "" : `?from=${encodeURIComponent(from)}`;
    const page: Page = await conforms(await c.req("GET", `${KEYS}${q}`), KEYS, "get", 200);
    expect(page.keys.length).toBeLessThanOrEqual(KEY_LIST_PAGE);
    if (page.next !== null) expect(page.keys.length).toBe(KEY_LIST_PAGE);
    seen.push(...page.keys);
    from = page.next;
    pages++;
    expect(pages).toBeLessThan(10);
  }
  expect(pages).toBe(3);
  expect(seen.map((k) => k.name)).toEqual(Array.from({ length: MADE }, (_, i) => `k${MADE - 1 - i}`));
  expect(seen.filter((k) => k.status === "active").length).toBe(3);
});

test("a page from a key starts at it; a key not the caller's gives an empty page; from twice is 400", async () => {
  const first: Page = (await (await c.req("GET", KEYS)).json()) as Page;
  const fifth = first.keys[4]!;
  const from: Page = (await (await c.req("GET", `${KEYS}?from=${fifth.id}`)).json()) as Page;
  expect(from.keys[0]!.id).toBe(fifth.id);
  const other = new Client(srv);
  await other.signup();
  expect(await (await other.req("GET", `${KEYS}?from=${fifth.id}`)).json()).toEqual({ keys: [], next: null });
  expect(await (await other.req("GET", KEYS)).json()).toEqual({ keys: [], next: null });
  expect((await c.req("GET", `${KEYS}?from=a&from=b`)).status).toBe(400);
});
