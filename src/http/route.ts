import type { Static, TSchema } from "@sinclair/typebox";
import type { Operation } from "../contract/openapi-operations.ts";

/**
 * A route declared once, beside its handler: the one list of these (src/server/routes.ts)
 * feeds Elysia's registration, the body gate, the OpenAPI document and /metrics' labels, so
 * no path is written anywhere else (docs/decisions/0128-a-route-is-declared-once.md).
 */

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Who may call. `key`: the run core reads the API key itself (its refusals are envelopes); the
 * route is CORS-open and never sees a cookie. `session`: the signed-in account, resolved once
 * before the handler, 401 without one. `optional-session`: that account or null. `none`:
 * anyone. Every route but `key` ones has its writes checked same-site (server/cross-site.ts).
 */
export type Auth = "none" | "key" | "optional-session" | "session";

/**
 * The request body. `none`: a read (GET), nothing is read. `json`: read by the server's gate
 * before the route, at most MAX_BODY_BYTES, and when not empty a JSON object sent as JSON (a
 * write without a body of its own, DELETE, still has any body it is sent checked so). `own`:
 * the route reads its own stream after its credential check (uploads, the run routes).
 */
export type BodyRule = "none" | "json" | "own";

/** What the route's static part says: everything but the handler. */
export interface Declaration {
  method: Method;
  /** Written once, Elysia's way (`/api/console/keys/:key_id`); the document's form is derived. */
  path: string;
  auth: Auth;
  body: BodyRule;
  /** The JSON body's schema, validated before the handler (Elysia's `body`). */
  schema?: TSchema;
  /** The answer's schema, when the handler returns an object (Elysia's `response`). */
  response?: TSchema;
  operation: Operation;
  /**
   * Answered by its handler while the server drains, where every other route hears 503
   * `internal_error`: `/healthz`, so a probe tells a draining server from a broken one
   * (docs/decisions/0150-healthz-in-a-drain-and-a-prompt-exit.md).
   */
  duringDrain?: true;
}

type AccountFor<Au extends Auth, A> = Au extends "session" ? A : Au extends "optional-session" ? A | null : undefined;
type BodyOf<D extends Declaration> = D["schema"] extends TSchema ? Static<D["schema"]> : undefined;

/** One call as the handler sees it. */
export interface Call<Acc, B> {
  request: Request;
  /** Path parameters, percent-decoded; null for a segment that is not valid percent-encoding. */
  params: Record<string, string | null | undefined>;
  body: B;
  account: Acc;
  /** Headers every answer of this route carries (CORS on `key` routes): set them when building it. */
  headers: Readonly<Record<string, string>>;
}

export type Handler<A, D extends Declaration> = (call: Call<AccountFor<D["auth"], A>, BodyOf<D>>) => unknown;

/** A declaration with its handler: what the server registers. */
export interface Route<A = unknown> extends Declaration {
  handle: (call: Call<A | null | undefined, unknown>) => unknown;
}

/** A routes file's routes: their declarations (static: the document needs no deps) and handlers over deps. */
export interface RouteSet<A, D> {
  declared: readonly Declaration[];
  build: (deps: D) => Route<A>[];
}

/**
 * `routes<Account>()(declarations, deps => handlers)`: each handler is typed by its own
 * declaration (its account, its body); a declaration without a handler fails typecheck.
 */
export function routes<A>() {
  return <D, const R extends Record<string, Declaration>>(
    declared: R,
    handlers: (deps: D) => { [K in keyof R]: Handler<A, R[K]> },
  ): RouteSet<A, D> => ({
    declared: Object.values(declared),
    build: (deps) => {
      const h = handlers(deps);
      return Object.entries(declared).map(([name, d]) => ({ ...d, handle: h[name] as Route<A>["handle"] }));
    },
  });
}

/** The document's spelling of a path: `:key_id` → `{key_id}`. */
export const documentPath = (path: string): string => path.replace(/:(\w+)/g, "{$1}");
