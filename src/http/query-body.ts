import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../errors.ts";

/**
 * Body of the query endpoints (SPEC §2). The ignored fields are accepted and unused;
 * unknown fields are accepted too. Length is checked in code points, not UTF-16 units.
 */
export const QueryBodySchema = T.Object({
  query: T.String({ description: "the question, 1 to 2000 characters (Unicode code points), not only white space" }),
  model: T.Optional(T.Unknown({ description: "accepted and ignored" })),
  depth_mode: T.Optional(T.Unknown({ description: "accepted and ignored" })),
  source_mode: T.Optional(T.Unknown({ description: "accepted and ignored" })),
  project_id: T.Optional(T.Unknown({ description: "accepted and ignored" })),
  preferences: T.Optional(T.Unknown({ description: "accepted and ignored" })),
}, { additionalProperties: true });

export const MAX_QUERY_CHARS = 2000;
/** Bodies past this are refused unread beyond it: a query can't need more. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Reads and validates the body; throws invalid_request naming the problem. */
export async function readQueryBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw bad(`the request body is too large (limit ${MAX_BODY_BYTES} bytes)`);
  let text: string;
  try { text = await request.text(); } catch { throw bad("the request body could not be read"); }
  if (text.length > MAX_BODY_BYTES) throw bad(`the request body is too large (limit ${MAX_BODY_BYTES} bytes)`);
  if (!text.trim()) throw bad("the request body is empty: send JSON {\"query\": \"...\"}");
  let body: unknown;
  try { body = JSON.parse(text); } catch { throw bad("the request body is not valid JSON"); }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw bad("the request body must be a JSON object with a query field");
  if (!("query" in body)) throw bad("query is required");
  if (!Value.Check(QueryBodySchema, body)) throw bad("query must be a string");
  const query = (body as { query: string }).query;
  const chars = [...query].length;
  if (chars === 0 || !query.trim()) throw bad("query must not be empty or only white space");
  if (chars > MAX_QUERY_CHARS) throw bad(`query is too long: ${chars} characters, the limit is ${MAX_QUERY_CHARS}`);
  return query;
}

const bad = (message: string) => new AppError("invalid_request", message);
