import type { Database } from "bun:sqlite";
import { afterAll, beforeAll } from "bun:test";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/schema.ts";
import type { Engine } from "../../src/research/types.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/server.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import type { Store } from "../../src/store/types.ts";
import { createLogger, type Logger } from "../../src/util/logger.ts";
import { scriptedEngine } from "./scripted-engine.ts";

/** Log lines a test server wrote (to assert no secret is ever logged), and its SQLite connection for checks. */
export interface TestServer extends RunningServer {
  logs: string[];
  /** The SQLite connection (throws for a store passed in that is not SQLite). */
  sql: Database;
}

/** What a test may vary; everything else is the product's default. */
export interface TestServerOptions
  extends Pick<
    StartOptions,
    | "keepAliveMs"
    | "idleTimeoutSec"
    | "bodyTimeoutMs"
    | "lease"
    | "runDeadline"
    | "allowanceClock"
    | "arrivals"
    | "imports"
    | "metrics"
    | "retention"
  > {
  /** The engine, or how to build it from the server's own config, logger and store (default: scriptedEngine()). */
  engine?: Engine | ((config: Config, logger: Logger, store: Store) => Engine);
  /** Environment over PORT=0, DATABASE_PATH=:memory:, LOG_LEVEL=debug; RUN_TIMEOUT_MS may go under the production minimum. */
  env?: Record<string, string>;
  /** An open store (PostgreSQL, a shared file); default: SQLite at the config's DATABASE_PATH. */
  store?: Store;
  /** Default: a debug logger into `logs`. */
  logger?: Logger;
}

/** The test config: the env over PORT=0, DATABASE_PATH=:memory: (unless DATABASE_URL), LOG_LEVEL=debug. */
export function testConfig(env: Record<string, string> = {}): Config {
  // The run deadline is set after validation: tests may use one under the production minimum.
  const { RUN_TIMEOUT_MS, ...rest } = env;
  // A PostgreSQL server keeps the default DATABASE_PATH (held outcomes are written beside it).
  const where = rest.DATABASE_URL ? {} : { DATABASE_PATH: ":memory:" };
  const config = loadConfig({ PORT: "0", ...where, LOG_LEVEL: "debug", ...rest }, "/nonexistent");
  if (RUN_TIMEOUT_MS) config.RUN_TIMEOUT_MS = Number(RUN_TIMEOUT_MS);
  return config;
}

/** The one way tests start the real server: startServer on an ephemeral port, by default over in-memory SQLite. */
export function startTestServer(o: TestServerOptions = {}): TestServer {
  const { engine, env, store: given, logger: givenLogger, ...start } = o;
  const config = testConfig(env);
  const logs: string[] = [];
  const logger =
    givenLogger ??
    createLogger("debug", (line) => {
      logs.push(line);
    });
  const store = given ?? openSqliteStore(config.DATABASE_PATH);
  const built = typeof engine === "function" ? engine(config, logger, store) : (engine ?? scriptedEngine());
  const s = startServer({ config, engine: built, store, logger, ...start });
  return Object.defineProperties(Object.assign(s, { logs }), {
    sql: {
      get: () => {
        if (!("raw" in store)) throw new Error("the test server's store is not SQLite");
        return store.raw as Database;
      },
    },
  }) as TestServer;
}

/** A `fetch` for one server's URLs. */
export type Send = (url: string, init?: RequestInit) => Promise<Response>;
/** Where a test's requests go: a URL over the network, or a server with its own `fetch` (test/helpers/in-process.ts). */
export type Target = string | { url: string; fetch: Send };
/** The base URL of a target and how to send to it. */
export const sendTo = (t: Target): [string, Send] => (typeof t === "string" ? [t, fetch] : [t.url, t.fetch]);

/** A browser-like client with a cookie jar of one cookie. */
export class Client {
  cookie: string | null = null;
  readonly base: string;
  private readonly send: Send;
  constructor(target: Target) {
    [this.base, this.send] = sendTo(target);
  }
  async req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h["content-type"] = "application/json";
    if (this.cookie) h.cookie = this.cookie;
    const res = await this.send(this.base + path, {
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

/** A new account on the server at `target`, signed in, with one key. */
export async function keyedClient(target: Target): Promise<{ c: Client; key: string }> {
  const c = new Client(target);
  await c.signup();
  return { c, key: (await c.createKey()).key };
}

/** POST /api/query with a key (Bearer by default). */
export function query(
  target: Target,
  key: string | null,
  body: unknown,
  extra: Record<string, string> = {},
  path = "/api/query",
): Promise<Response> {
  const h: Record<string, string> = { "content-type": "application/json", ...extra };
  if (key !== null) h.authorization = `Bearer ${key}`;
  const [base, send] = sendTo(target);
  return send(base + path, {
    method: "POST",
    headers: h,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The test file's server (startTestServer, or `start`: startInProcess) with one signed-up account and its key, made before its tests and stopped after. */
export function useKeyedServer<S extends TestServer & Partial<{ fetch: Send }>>(
  o: TestServerOptions,
  set: (s: { srv: S; key: string; owner: Client }) => void,
  start: (o: TestServerOptions) => S = startTestServer as (o: TestServerOptions) => S,
): void {
  let srv: S | undefined;
  beforeAll(async () => {
    srv = start(o);
    const owner = new Client(srv.fetch ? { url: srv.url, fetch: srv.fetch } : srv.url);
    await owner.signup();
    set({ srv, key: (await owner.createKey()).key, owner });
  });
  afterAll(() => srv?.stop(100));
}
