import { Value } from "@sinclair/typebox/value";
import { AppError } from "../contract/errors.ts";
import { MAX_BODY_BYTES, MAX_QUERY_CHARS, QueryBodySchema } from "../contract/query.ts";

/** Reads and validates the body; throws invalid_request naming the problem. */
export async function readQueryBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw bad(`the request body is too large (limit ${MAX_BODY_BYTES} bytes)`);
  let text: string;
  try {
    text = await request.text();
  } catch {
    throw bad("the request body could not be read");
  }
  if (text.length > MAX_BODY_BYTES) throw bad(`the request body is too large (limit ${MAX_BODY_BYTES} bytes)`);
  if (!text.trim()) throw bad('the request body is empty: send JSON {"query": "..."}');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad("the request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw bad("the request body must be a JSON object with a query field");
  if (!("query" in body)) throw bad("query is required");
  if (!Value.Check(QueryBodySchema, body)) throw bad("query must be a string");
  const query = (body as { query: string }).query;
  const chars = [...query].length;
  if (chars === 0 || !query.trim()) throw bad("query must not be empty or only white space");
  if (chars > MAX_QUERY_CHARS) throw bad(`query is too long: ${chars} characters, the limit is ${MAX_QUERY_CHARS}`);
  return query;
}

const bad = (message: string) => new AppError("invalid_request", message);
