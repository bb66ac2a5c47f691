import { type Static, Type as T } from "@sinclair/typebox";
import { EnvelopeSchema } from "./envelope.ts";
import { MAX_QUERY_CHARS } from "./query.ts";

/**
 * The argument and result schemas of the tools of `research-query mcp` (README "MCP server:
 * research from AI agents"), as MCP clients receive them in `tools/list`; the tools themselves
 * are the TOOLS table of src/mcp/tools.ts. The schemas are the JSON Schema TypeBox builds;
 * arguments are checked by src/mcp, which answers a bad argument as a tool result with
 * `isError` and code invalid_request, so a model can correct it.
 */

export const ResearchArgsSchema = T.Object(
  {
    question: T.String({
      minLength: 1,
      description: `the research question in plain language, 1 to ${MAX_QUERY_CHARS} characters`,
    }),
  },
  { additionalProperties: false },
);

/** `research`'s structured result: the response envelope of POST /api/query, whatever its status. */
export const ResearchResultSchema = EnvelopeSchema;

export const ExtractArgsSchema = T.Object(
  {
    url: T.String({ minLength: 1, description: "an http(s) address of an HTML page or a PDF" }),
  },
  { additionalProperties: false },
);

export const ExtractResultSchema = T.Object(
  {
    url: T.String({ description: "the address read (after redirects)" }),
    title: T.String(),
    text: T.String({ description: "the main text, as the engine reads it for an answer" }),
  },
  { additionalProperties: false },
);
export type ExtractResult = Static<typeof ExtractResultSchema>;
