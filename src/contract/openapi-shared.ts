import {
  err,
  header,
  type Operation,
  type Response,
  retry,
  UNAVAILABLE,
  UNAVAILABLE_WHY,
} from "./openapi-operations.ts";

/**
 * What every operation's answers share, added in one place so that no operation can miss it:
 * the X-Request-Id header on every response (README "The API"), an unexpected failure (500) and the
 * refusal of a draining server or one without its database (503 with Retry-After). Operations that answer these with
 * something else (the run endpoints: the envelope) keep their own.
 */
export function withSharedAnswers(
  paths: Record<string, Record<string, Operation>>,
): Record<string, Record<string, Operation>> {
  const out: Record<string, Record<string, Operation>> = {};
  for (const [path, ops] of Object.entries(paths)) {
    out[path] = {};
    for (const [method, op] of Object.entries(ops)) out[path][method] = shared(op);
  }
  return out;
}

function shared(op: Operation): Operation {
  const all: Record<string, Response> = {
    ...op.responses,
    500: op.responses[500] ?? err(["internal_error"], " (an unexpected failure)"),
    503: op.responses[503] ?? err(UNAVAILABLE, UNAVAILABLE_WHY, retry),
  };
  // New objects throughout: response and header maps are shared between operations.
  const responses = Object.fromEntries(
    Object.entries(all).map(([status, r]) => [
      status,
      {
        description: r.description,
        headers: { "X-Request-Id": header("X-Request-Id"), ...r.headers },
        ...(r.content ? { content: r.content } : {}),
      },
    ]),
  );
  return { ...op, responses };
}
