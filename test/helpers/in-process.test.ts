import { afterAll, describe, expect, test } from "bun:test";
import { startInProcess } from "./in-process.ts";
import { Client, query } from "./server.ts";

// The in-process helper must answer as the server does over the network, and must not use it.
const srv = startInProcess({ env: { PLAN_RUNS_FREE: "10" } });
afterAll(() => srv.stop(100));

describe("startInProcess", () => {
  test("a host no socket can reach is answered: the request never left the process", async () => {
    const c = new Client({ url: "http://rq.invalid", fetch: srv.fetch });
    await c.signup();
    const { key } = await c.createKey("k");
    const res = await query({ url: "http://rq.invalid", fetch: srv.fetch }, key, { query: "q" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("ok");
    expect(await c.used()).toBe(1);
  });

  test("the same calls in process and over loopback get the same statuses, headers and envelopes", async () => {
    const over = new Client(srv.url);
    const inside = new Client(srv);
    for (const c of [over, inside]) await c.signup();
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/console/keys"],
      ["POST", "/api/console/keys", { name: "n" }],
      ["GET", "/api/console/usage"],
      ["GET", "/api/console/nothing-here"],
      ["POST", "/api/console/keys", "{not json"],
    ];
    for (const [method, path, body] of calls) {
      const [a, b] = await Promise.all([over.req(method, path, body), inside.req(method, path, body)]);
      expect(b.status).toBe(a.status);
      expect(b.headers.get("content-type")).toBe(a.headers.get("content-type"));
      expect(b.headers.get("x-request-id")).toBeTruthy();
      const [ja, jb] = [await a.text(), await b.text()];
      // Ids and times differ between the two accounts: compare the shape of the answer.
      const shape = (t: string) => t.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "0");
      expect(shape(jb)).toBe(shape(ja));
    }
  });

  test("the request carries Host as on the wire: its own origin passes the cross-site check, another does not", async () => {
    const c = new Client(srv);
    await c.signup();
    expect((await c.req("POST", "/api/console/keys", {}, { origin: srv.url })).status).toBe(201);
    expect((await c.req("POST", "/api/console/keys", {}, { origin: "https://elsewhere.example" })).status).toBe(403);
  });
});
