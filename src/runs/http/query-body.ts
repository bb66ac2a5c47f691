import { Value } from "@sinclair/typebox/value";
import { AppError } from "../../contract/errors.ts";
import { MAX_QUERY_CHARS, QueryBodySchema } from "../../contract/query.ts";
import { isStorableText, unstorableMessage } from "../../contract/storable-text.ts";
import { parseJsonObject, readRequestBody } from "../../http/request-body.ts";

/** Reads and validates the body; throws invalid_request naming the problem. */
export async function readQueryBody(request: Request, timeoutMs?: number): Promise<string> {
  const text = await readRequestBody(request, timeoutMs);
  if (!text.trim()) throw bad('the request body is empty: send JSON {"query": "..."}');
  const body = parseJsonObject(text, "the request body must be a JSON object with a query field");
  if (!("query" in body)) throw bad("query is required");
  if (!Value.Check(QueryBodySchema, body)) throw bad("query must be a string");
  return checkQuestion((body as { query: string }).query, "query");
}

/**
 * The rules a question meets on every entry (the query endpoints, the web client's runs,
 * MCP's `research`): 1 to MAX_QUERY_CHARS code points, something visible, text every
 * backend stores (contract/storable-text.ts). `field` names it in the message as the caller
 * knows it. Throws invalid_request.
 */
export function checkQuestion(query: string, field: string): string {
  if (!isStorableText(query)) throw bad(unstorableMessage(field));
  const chars = [...query].length;
  if (chars === 0 || !query.trim()) throw bad(`${field} must not be empty or only white space`);
  // Zero-width and control characters look empty too, and would still be charged as a run.
  if (!VISIBLE.test(query))
    throw bad(`${field} must contain a visible character (not only invisible or control characters)`);
  if (chars > MAX_QUERY_CHARS) throw bad(`${field} is too long: ${chars} characters, the limit is ${MAX_QUERY_CHARS}`);
  return query;
}

const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

const bad = (message: string) => new AppError("invalid_request", message);
