import { Type as T, type TSchema } from "@sinclair/typebox";
import { AUDIT_SCHEMAS } from "./audit.ts";
import { AUTH_SCHEMAS } from "./auth.ts";
import { COLLECTION_SCHEMAS } from "./collections.ts";
import { CONSOLE_SCHEMAS } from "./console.ts";
import { ENVELOPE_SCHEMAS } from "./envelope.ts";
import { ERROR_SCHEMAS } from "./errors.ts";
import { EVENT_SCHEMAS } from "./events.ts";
import { LEAVING_SCHEMAS } from "./leaving.ts";
import { QUERY_SCHEMAS } from "./query.ts";
import { UPLOAD_SCHEMAS } from "./uploads.ts";

/**
 * The named schemas of the OpenAPI document (components.schemas), generated from the
 * contract's TypeBox schemas: each is serialised to plain JSON Schema (TypeBox's symbol
 * keys dropped, keywords outside OpenAPI 3.1 removed), then every nested sub-schema
 * deep-equal to another named schema becomes a $ref to it. So Envelope's sources.items
 * is {$ref: "#/components/schemas/Source"} without anyone writing that by hand.
 */

export const HealthSchema = T.Object(
  {
    status: T.Union([T.Literal("ok"), T.Literal("draining")], {
      description:
        "`ok`: the process answers; the database was open and migrated at its start. `draining` (with 503): a stop is under way, runs in flight finish and new calls are refused",
    }),
    database: T.Union([T.Literal("ok"), T.Literal("unreachable")], {
      description:
        "whether the database answers now; while it is unreachable new calls get 503 service_unavailable with Retry-After",
    }),
    unrecorded_runs: T.Integer({
      minimum: 0,
      description: "runs that ended while the database was unreachable; their answers are written once it is back",
    }),
  },
  { description: "the process's health and its database's" },
);

/**
 * Name → schema, each contract file's own list in turn (a new schema is named in its file's
 * list, this order is components.schemas'). Only non-trivial schemas: a name for a bare string
 * would match everywhere.
 */
export const NAMED_SCHEMAS = {
  ...ENVELOPE_SCHEMAS,
  ...ERROR_SCHEMAS,
  ...QUERY_SCHEMAS,
  ...EVENT_SCHEMAS,
  ...CONSOLE_SCHEMAS,
  ...COLLECTION_SCHEMAS,
  ...UPLOAD_SCHEMAS,
  ...AUTH_SCHEMAS,
  ...AUDIT_SCHEMAS,
  ...LEAVING_SCHEMAS,
  Health: HealthSchema,
} as const satisfies Record<string, TSchema>;

export type SchemaName = keyof typeof NAMED_SCHEMAS;
export type JsonSchema = { [keyword: string]: unknown };

/** A reference to a named schema. */
export const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema 2020-12 keywords and OpenAPI 3.1's additions; anything else is dropped. */
const KEYWORDS = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "contains",
  "unevaluatedItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "contentMediaType",
  "contentEncoding",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "example",
  "discriminator",
  "xml",
  "externalDocs",
]);
/** Keywords whose value is one sub-schema, a list of them, or a map of them. */
const ONE = new Set([
  "items",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["properties", "patternProperties", "dependentSchemas"]);

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Applies `f` to each direct sub-schema of `s`; everything else is copied. */
function mapSubschemas(s: JsonSchema, f: (sub: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if ((ONE.has(k) || k === "additionalProperties") && isObject(v)) out[k] = f(v);
    else if (LIST.has(k) && Array.isArray(v)) out[k] = v.map((x) => (isObject(x) ? f(x) : x));
    else if (MAP.has(k) && isObject(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([p, x]) => [p, isObject(x) ? f(x) : x]));
    else out[k] = v;
  }
  return out;
}

/** Plain JSON Schema: a JSON round trip drops TypeBox's symbol keys; unknown keywords go. */
export function plainSchema(schema: unknown): JsonSchema {
  const strip = (s: JsonSchema): JsonSchema =>
    mapSubschemas(Object.fromEntries(Object.entries(s).filter(([k]) => KEYWORDS.has(k) || k.startsWith("x-"))), strip);
  return strip(JSON.parse(JSON.stringify(schema)) as JsonSchema);
}

/** JSON with sorted keys: equal schemas give equal text whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

let named: { plain: Record<SchemaName, JsonSchema>; byText: Map<string, SchemaName> } | undefined;

/** The named schemas as plain JSON Schema, each keyed by its canonical text (built once). */
function plainNamed(): { plain: Record<SchemaName, JsonSchema>; byText: Map<string, SchemaName> } {
  if (named) return named;
  const plain = {} as Record<SchemaName, JsonSchema>;
  const byText = new Map<string, SchemaName>();
  for (const name of Object.keys(NAMED_SCHEMAS) as SchemaName[]) {
    plain[name] = plainSchema(NAMED_SCHEMAS[name]);
    const text = canonical(plain[name]);
    if (byText.has(text))
      throw new Error(`schemas ${byText.get(text)} and ${name} are identical: name one of them only`);
    byText.set(text, name);
  }
  named = { plain, byText };
  return named;
}

/** Replaces every sub-schema of `s` (not `s` itself) that equals a named schema by its $ref. */
function withRefs(s: JsonSchema, byText: Map<string, SchemaName>): JsonSchema {
  const visit = (sub: JsonSchema): JsonSchema => {
    const name = byText.get(canonical(sub));
    return name ? ref(name) : mapSubschemas(sub, visit);
  };
  return mapSubschemas(s, visit);
}

/** components.schemas: every named schema, nested named schemas as $refs. */
export function componentSchemas(): Record<SchemaName, JsonSchema> {
  const { plain, byText } = plainNamed();
  const out = {} as Record<SchemaName, JsonSchema>;
  // structuredClone: callers may alter the document they get; the cache stays as built.
  for (const name of Object.keys(plain) as SchemaName[]) out[name] = withRefs(structuredClone(plain[name]), byText);
  return out;
}

/** Any schema for an operation: a named one as its $ref, another inline with $refs inside. */
export function schemaFor(schema: TSchema): JsonSchema {
  const { byText } = plainNamed();
  const plain = plainSchema(schema);
  const name = byText.get(canonical(plain));
  return name ? ref(name) : withRefs(plain, byText);
}
