import type { JsonSchema } from "../contract/openapi-schemas.ts";

/**
 * A request body for /docs: its fields, and an example of it — the schema's own example where
 * it has one, else one made from the schema (docs/decisions/0154-docs-render-descriptions-and-bodies.md).
 */

type Schemas = Record<string, JsonSchema>;

/** Nesting followed when making an example: deeper levels are left out, and a schema that names itself ends. */
const MAX_DEPTH = 4;

/** `#/components/schemas/Name` → its schema and name; anything else as it is. */
export function resolve(s: JsonSchema, schemas: Schemas): { schema: JsonSchema; name: string | null } {
  const ref = typeof s.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1] : undefined;
  return ref && schemas[ref] ? { schema: schemas[ref]!, name: ref } : { schema: s, name: null };
}

const first = (s: JsonSchema): unknown => {
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ("example" in s) return s.example;
  if ("const" in s) return s.const;
  if ("default" in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  return undefined;
};

const STRINGS: Record<string, string> = {
  uuid: "00000000-0000-0000-0000-000000000000",
  email: "you@example.com",
  "date-time": "2026-11-27T12:00:00Z",
  uri: "https://example.org/",
};

/** A value the schema accepts, made from its own examples, defaults and types. */
export function exampleOf(given: JsonSchema, schemas: Schemas, depth = 0): unknown {
  const { schema: s } = resolve(given, schemas);
  const own = first(s);
  if (own !== undefined) return own;
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const pick = branches.find((b) => resolve(b, schemas).schema.type !== "null") ?? branches[0];
    return pick ? exampleOf(pick, schemas, depth) : null;
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : s.type;
  if (type === "object" || s.properties) {
    if (depth >= MAX_DEPTH) return {};
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [name, p] of Object.entries((s.properties ?? {}) as Schemas)) {
      // An optional field that says nothing of its type (accepted and ignored) stays out.
      const typed = p.type !== undefined || p.$ref !== undefined || first(p) !== undefined || p.anyOf !== undefined;
      if (required.has(name) || typed) out[name] = exampleOf(p, schemas, depth + 1);
    }
    return out;
  }
  if (type === "array")
    return depth >= MAX_DEPTH || !s.items ? [] : [exampleOf(s.items as JsonSchema, schemas, depth + 1)];
  if (type === "string") return STRINGS[String(s.format)] ?? (s.format === "binary" ? "(file bytes)" : "text");
  if (type === "integer" || type === "number") return typeof s.minimum === "number" ? s.minimum : 1;
  if (type === "boolean") return true;
  return null;
}

/** A field's type in a few words: `string`, `integer`, one of `"a"`, `"b"`, a list of `Source`. */
export function typeWords(given: JsonSchema, schemas: Schemas): string {
  const { schema: s, name } = resolve(given, schemas);
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  // TypeBox writes a union of literals as branches of one `const` each: the values are the type.
  const values = Array.isArray(s.enum)
    ? (s.enum as unknown[])
    : branches?.every((b) => "const" in b)
      ? branches.map((b) => b.const)
      : null;
  if (values) return `one of ${values.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}`;
  if (name && s.type === "object") return `\`${name}\``;
  if (Array.isArray(branches)) return branches.map((b) => typeWords(b, schemas)).join(" or ");
  if (s.type === "array") return `a list of ${s.items ? typeWords(s.items as JsonSchema, schemas) : "values"}`;
  const type = Array.isArray(s.type) ? (s.type as string[]).join(" or ") : s.type;
  if (!type) return "any";
  return `\`${type}\`${s.format ? ` (${s.format})` : ""}`;
}
