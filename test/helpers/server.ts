import type { Database } from "bun:sqlite";
import { afterAll, beforeAll } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/schema.ts";
import type { Engine } from "../../src/research/types.ts";
import type { DeadlineTimer } from "../../src/runs/execute.ts";
import { type RunningServer, startServer } from "../../src/server/server.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { createLogger } from "../../src/util/logger.ts";

/** Log lines a test server wrote (to assert no secret is ever logged), and its SQLite connection for checks. */
export interface TestServer extends RunningServer {
  logs: string[];
  sql: Database;
}

/** Starts the real server on an ephemeral port with an in-memory database. */
export function startTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  keepAliveMs?: number,
  idleTimeoutSec?: number,
  runDeadline?: DeadlineTimer,
): TestServer {
  // The run deadline is injected after validation: tests may use one under the production minimum.
  const { RUN_TIMEOUT_MS, ...rest } = env;
  const config: Config = loadConfig(
    { PORT: "0", DATABASE_PATH: ":memory:", LOG_LEVEL: "debug", ...rest },
    "/nonexistent",
  );
  if (RUN_TIMEOUT_MS) config.RUN_TIMEOUT_MS = Number(RUN_TIMEOUT_MS);
  const logs: string[] = [];
  const logger = createLogger("debug", (line) => {
    logs.push(line);
  });
  const store = openSqliteStore(config.DATABASE_PATH);
  const s = startServer({ config, engine, store, logger, keepAliveMs, idleTimeoutSec, runDeadline });
  return Object.assign(s, { logs, sql: store.raw });
}

/** A browser-like client with a cookie jar of one cookie. */
export class Client {
  cookie: string | null = null;
  constructor(readonly base: string) {}
  async req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h["content-type"] = "application/json";
    if (this.cookie) h.cookie = this.cookie;
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const set = res.headers.get("set-cookie");
    if (set) {
      const [pair] = set.split(";");
      this.cookie = pair && /=.+/.test(pair) ? pair : null;
    }
    return res;
  }
  async signup(email = `u${crypto.randomUUID().slice(0, 8)}@example.com`, password = "correct horse battery") {
    const res = await this.req("POST", "/api/v1/auth/signup", { email, password });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
    return { email, password, account: (await res.json()) as { id: string; plan: string } };
  }
  /** This month's runs counted against the account's allowance (the Console's usage). */
  async used(): Promise<number> {
    const usage = (await (await this.req("GET", "/api/console/usage")).json()) as { allowance: { used: number } };
    return usage.allowance.used;
  }
  async createKey(name?: string): Promise<{ id: string; key: string; prefix: string }> {
    const res = await this.req("POST", "/api/console/keys", name === undefined ? {} : { name });
    if (res.status !== 201) throw new Error(`key create failed: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string; key: string; prefix: string }>;
  }
}

/** A new account on the server at `url`, signed in, with one key. */
export async function keyedClient(url: string): Promise<{ c: Client; key: string }> {
  const c = new Client(url);
  await c.signup();
  return { c, key: (await c.createKey()).key };
}

/** POST /api/query with a key (Bearer by default). */
export function query(
  base: string,
  key: string | null,
  body: unknown,
  extra: Record<string, string> = {},
  path = "/api/query",
): Promise<Response> {
  const h: Record<string, string> = { "content-type": "application/json", ...extra };
  if (key !== null) h.authorization = `Bearer ${key}`;
  return fetch(base + path, {
    method: "POST",
    headers: h,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The test file's server with one signed-up account and its key, made before its tests and stopped after. */
export function useKeyedServer(
  engine: Engine,
  env: Record<string, string>,
  set: (s: { srv: TestServer; key: string; owner: Client }) => void,
): void {
  let srv: TestServer | undefined;
  beforeAll(async () => {
    srv = startTestServer(engine, env);
    const owner = new Client(srv.url);
    await owner.signup();
    set({ srv, key: (await owner.createKey()).key, owner });
  });
  afterAll(() => srv?.stop(100));
}
