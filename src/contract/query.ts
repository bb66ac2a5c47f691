import { type Static, Type as T, type TSchema } from "@sinclair/typebox";

/**
 * The body of the query endpoints, /api/query and /api/query/stream, and of the web
 * client's /api/v1/research and /api/v1/research/stream (README "The API").
 *
 * The schema checks the shape only: `query` must be a string. Its length is checked in
 * code points (JSON Schema's maxLength would be UTF-16 units in TypeBox) and white space
 * by the reader, so that each refusal names its problem: no body, broken JSON, wrong type,
 * empty, too long are all `invalid_request` with their own message.
 */

/** The longest query, in Unicode code points. */
export const MAX_QUERY_CHARS = 2000;

/** Every route's body limit (src/http/request-body.ts): past it, 400 invalid_request, unread beyond it. */
export const MAX_BODY_BYTES = 64 * 1024;

/** How long a client may take to send a body once its headers are in (src/http/request-body.ts). */
export const BODY_TIMEOUT_S = 10;

const ignored = (name: string) => T.Optional(T.Unknown({ description: `${name}: accepted and ignored` }));

/** The fields named below as ignored are accepted, and so are unknown fields. */
export const QueryBodySchema = T.Object(
  {
    query: T.String({
      description: `the question, 1 to ${MAX_QUERY_CHARS} characters (Unicode code points), not only white space`,
      examples: ["What limits the energy density of solid-state batteries?"],
    }),
    model: ignored("model"),
    depth_mode: ignored("depth_mode"),
    source_mode: ignored("source_mode"),
    project_id: ignored("project_id"),
    preferences: ignored("preferences"),
  },
  {
    additionalProperties: true,
    description: `JSON object with query. Anything else (no body, broken JSON, wrong type, empty, over ${MAX_QUERY_CHARS} characters, a body over ${MAX_BODY_BYTES} bytes) is 400 invalid_request.`,
  },
);

export type QueryBody = Static<typeof QueryBodySchema>;

/** An example body, as the OpenAPI document shows it. */
export const QUERY_BODY_EXAMPLE: QueryBody = {
  query: "What limits the energy density of solid-state batteries?",
};

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const QUERY_SCHEMAS = {
  QueryBody: QueryBodySchema,
} as const satisfies Record<string, TSchema>;
