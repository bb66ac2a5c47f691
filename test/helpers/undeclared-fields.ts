import { Kind, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { TimelineEntrySchema } from "../../src/contract/console.ts";
import { ProgressSchema } from "../../src/contract/events.ts";

/**
 * The fields a payload carries that its schema does not name, as JSON pointers. Value.Check
 * finds what is missing or wrong; this finds what the document would leave a generated client
 * unable to see. Extra fields are the design in one place only: a progress event's details
 * (and the progress entries of a timeline, which carry them).
 */
export function undeclaredFields(schema: TSchema, value: unknown, at = ""): string[] {
  if (schema[Kind] === "Union") {
    const member = (schema.anyOf as TSchema[]).find((s) => Value.Check(s, value));
    return member ? undeclaredFields(member, value, at) : [];
  }
  if (schema[Kind] === "Array" && Array.isArray(value))
    return value.flatMap((v, i) => undeclaredFields(schema.items as TSchema, v, `${at}/${i}`));
  if (schema[Kind] !== "Object" || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const props = schema.properties as Record<string, TSchema>;
  const fields = value as Record<string, unknown>;
  const open = schema === ProgressSchema || (schema === TimelineEntrySchema && fields.type === "progress");
  return Object.entries(fields).flatMap(([k, v]) =>
    props[k] ? undeclaredFields(props[k], v, `${at}/${k}`) : open ? [] : [`${at}/${k}`],
  );
}
