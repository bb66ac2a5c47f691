import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchEventSource } from "@microsoft/fetch-event-source";
import { EventSource } from "eventsource";
import { cuttingProxy } from "../../helpers/cutting-proxy.ts";
import { type Script, scriptedEngine } from "../../helpers/scripted-engine.ts";
import { keyedClient, startTestServer } from "../../helpers/server.ts";
import { useLongTimeout } from "../../setup.ts";

useLongTimeout();

/**
 * The two SSE clients developers reach for, against the running server through a proxy
 * that can drop connections (README "Safe retries"): each gets the whole answer, exactly one
 * run is charged, and neither hammers the server after the end or after a refusal.
 */

const DELTAS = ["Solid ", "electrolytes ", "crack ", "under ", "pressure ", "[S1]."];
const FULL = DELTAS.join("");

async function setUp(script: Script, keepAliveMs?: number) {
  const eng = scriptedEngine({ deltas: DELTAS, deltaMs: 80, ...script });
  const srv = startTestServer({ engine: eng, keepAliveMs });
  const proxy = await cuttingProxy(srv.url);
  const { c, key } = await keyedClient(srv.url);
  const used = () => c.used();
  return {
    eng,
    srv,
    proxy,
    key,
    used,
    stop: async () => {
      await proxy.close();
      await srv.stop(100);
    },
  };
}

/** An `eventsource` that POSTs the question through its fetch option, recording each request's Last-Event-ID. */
function postingEventSource(url: string, key: string, posts: (string | null)[]) {
  return new EventSource(url, {
    fetch: (input, init) => {
      const headers = { ...(init.headers as Record<string, string>) };
      posts.push(headers["Last-Event-ID"] ?? null);
      return fetch(input, {
        ...init,
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query: "What limits solid-state batteries?" }),
      });
    },
  });
}

describe("eventsource (POST through its fetch option)", () => {
  test("a connection cut mid-answer resumes: the whole answer once, one run charged", async () => {
    const t = await setUp({});
    try {
      const posts: (string | null)[] = [];
      const es = postingEventSource(`${t.proxy.url}/api/query/stream`, t.key, posts);
      const deltas: string[] = [];
      const final = await new Promise<any>((resolve) => {
        es.addEventListener("answer", (e) => {
          deltas.push(JSON.parse(e.data).delta);
          if (deltas.length === 2) t.proxy.cut();
        });
        es.addEventListener("final", (e) => {
          es.close();
          resolve(JSON.parse(e.data));
        });
      });
      expect(deltas.join("")).toBe(FULL);
      expect(final.answer).toBe(FULL);
      expect(posts).toHaveLength(2);
      expect(posts[1]).toMatch(new RegExp(`^${final.request_id}:\\d+$`));
      expect(t.eng.calls).toBe(1);
      expect(await t.used()).toBe(1);
    } finally {
      await t.stop();
    }
  });

  test("left open after final, it reconnects once, gets 204 and stops", async () => {
    const t = await setUp({ deltaMs: 0 });
    try {
      const posts: (string | null)[] = [];
      const es = postingEventSource(`${t.proxy.url}/api/query/stream`, t.key, posts);
      const stopped = new Promise<number | undefined>((resolve) => {
        es.addEventListener("error", (e) => {
          if (es.readyState === EventSource.CLOSED) resolve((e as { code?: number }).code);
        });
      });
      expect(await stopped).toBe(204);
      await Bun.sleep(1200);
      expect(posts).toHaveLength(2);
      expect(t.eng.calls).toBe(1);
      expect(await t.used()).toBe(1);
    } finally {
      await t.stop();
    }
  });

  test("a bad key ends without a reconnect storm", async () => {
    const t = await setUp({});
    try {
      const posts: (string | null)[] = [];
      const es = postingEventSource(`${t.proxy.url}/api/query/stream`, "rq-bad", posts);
      const code = await new Promise<string>((resolve) => {
        es.addEventListener("error", (e) => {
          if ("data" in e && e.data) resolve(JSON.parse(String(e.data)).code);
        });
      });
      expect(code).toBe("invalid_api_key");
      await Bun.sleep(1800); // the stream's own hint (1 s) would have reconnected by now
      es.close();
      expect(posts).toHaveLength(1);
    } finally {
      await t.stop();
    }
  });
});

describe("@microsoft/fetch-event-source", () => {
  // It is written for browsers: it reads `window` and `document`.
  const g = globalThis as Record<string, unknown>;
  beforeAll(() => {
    g.window = globalThis;
    g.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
  });
  afterAll(() => {
    delete g.window;
    delete g.document;
  });

  /** The usual handler: JSON.parse on every message; what it saw and how many POSTs were made. */
  async function run(url: string, key: string, onAnswer?: (n: number) => void) {
    const seen: { event: string; data: any }[] = [];
    let posts = 0;
    await fetchEventSource(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "What limits solid-state batteries?" }),
      openWhenHidden: true,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        posts++;
        return fetch(input, init);
      }) as typeof fetch,
      onmessage(ev) {
        seen.push({ event: ev.event, data: JSON.parse(ev.data) });
        if (ev.event === "answer") onAnswer?.(seen.filter((e) => e.event === "answer").length);
      },
      onerror(err) {
        if (seen.at(-1)?.event === "final") throw err;
        return 200;
      },
    });
    return { seen, posts };
  }

  test("keep-alives during a quiet run are not messages: one POST, the whole answer", async () => {
    const gate = Promise.withResolvers<void>();
    const t = await setUp({ gate: gate.promise }, 40);
    try {
      setTimeout(() => gate.resolve(), 400);
      const { seen, posts } = await run(`${t.proxy.url}/api/query/stream`, t.key);
      expect(posts).toBe(1);
      expect(seen.at(-1)!.event).toBe("final");
      expect(seen.at(-1)!.data.answer).toBe(FULL);
      expect(t.eng.calls).toBe(1);
    } finally {
      await t.stop();
    }
  });

  test("a connection cut mid-answer is re-POSTed with Last-Event-ID: each delta once, one run charged", async () => {
    const t = await setUp({});
    try {
      const { seen, posts } = await run(`${t.proxy.url}/api/query/stream`, t.key, (n) => {
        if (n === 3) t.proxy.cut();
      });
      expect(posts).toBe(2);
      const answer = seen.filter((e) => e.event === "answer").map((e) => e.data.delta);
      expect(answer.join("")).toBe(FULL);
      expect(seen.filter((e) => e.event === "final")).toHaveLength(1);
      expect(t.eng.calls).toBe(1);
      expect(await t.used()).toBe(1);
    } finally {
      await t.stop();
    }
  });
});
