import { expect } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { NAMED_SCHEMAS, type SchemaName } from "../../src/contract/openapi-schemas.ts";
import { apiDocument } from "../../src/server/api-document.ts";
import { undeclaredFields } from "./undeclared-fields.ts";

/**
 * The contract against the running service: an answer must match the schema the OpenAPI
 * document names for its path, method and status — every field it requires is there, and every
 * field sent is one it names (test/contract/wire.test.ts, and each feature's own routes).
 */

const doc = apiDocument("http://127.0.0.1");

/** The schema the document names for this answer, as the TypeBox schema behind the name. */
export function documented(path: string, method: string, status: number): TSchema {
  const r = doc.paths[path]?.[method]?.responses[String(status)];
  if (!r) throw new Error(`${method.toUpperCase()} ${path} ${status} is not documented`);
  const ref = (r.content?.["application/json"] as { schema?: { $ref?: string } } | undefined)?.schema?.$ref;
  if (!ref) throw new Error(`${method.toUpperCase()} ${path} ${status} documents no named JSON schema`);
  return NAMED_SCHEMAS[ref.split("/").pop() as SchemaName];
}

/** Checks an answer against its documented schema (path as the document writes it); returns its body. */
export async function conforms(res: Response, path: string, method: string, status: number): Promise<any> {
  expect([path, res.status]).toEqual([path, status]);
  const body = await res.json();
  const schema = documented(path, method, status);
  const errors = [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);
  expect([path, status, errors, undeclaredFields(schema, body)]).toEqual([path, status, [], []]);
  return body;
}
