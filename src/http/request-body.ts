import { AppError } from "../contract/errors.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../contract/json-walk.ts";
import { BODY_TIMEOUT_S, MAX_BODY_BYTES } from "../contract/query.ts";
import { unstorableAt, unstorableMessage } from "../contract/storable-text.ts";
import { readBodyCapped } from "../util/read-capped.ts";

const BODY_TIMEOUT_MS = BODY_TIMEOUT_S * 1000;

class TooLarge extends Error {}

/**
 * A request body as text, at most `maxBytes` (MAX_BODY_BYTES unless a route takes more) and
 * within BODY_TIMEOUT_MS. Bun's own
 * body limit is lifted (src/server/server.ts) so that every route answers an oversize body
 * with its own coded refusal, after its credential check; this is the limit instead.
 * Threats: a body that never ends (memory) and a body sent a byte at a time (a held
 * connection). Throws invalid_request naming which.
 */
export async function readRequestBody(
  request: Request,
  timeoutMs = BODY_TIMEOUT_MS,
  maxBytes = MAX_BODY_BYTES,
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? "0") > maxBytes) throw tooLarge(maxBytes);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError("invalid_request", `the request body did not arrive within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    // A declared length is what Bun reads, natively (a JS stream reader costs the hot path
    // ~15 % of its accepted runs); only a chunked body needs counting as it comes.
    if (declared !== null) return await Promise.race([request.text(), late]);
    const bytes = await Promise.race([readBodyCapped(request, maxBytes, () => new TooLarge()), late]);
    return new TextDecoder().decode(bytes);
  } catch (e) {
    if (e instanceof TooLarge) throw tooLarge(maxBytes);
    if (e instanceof AppError) throw e;
    throw new AppError("invalid_request", "the request body could not be read");
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A body's text as a JSON object (not an array, string or null), nested at most MAX_JSON_DEPTH
 * levels (contract/json-walk.ts), whose strings every backend can store
 * (contract/storable-text.ts); throws invalid_request, `notObject` naming what the route expected.
 */
export function parseJsonObject(text: string, notObject: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", "the request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new AppError("invalid_request", notObject);
  if (nestedDeeperThan(body)) throw new AppError("invalid_request", tooDeep);
  const unstorable = unstorableAt(body);
  if (unstorable) throw new AppError("invalid_request", unstorableMessage(unstorable));
  return body as Record<string, unknown>;
}

const tooDeep = `the request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`;

const tooLarge = (maxBytes: number) =>
  new AppError("invalid_request", `the request body is too large (limit ${maxBytes} bytes)`);
