import { FormatRegistry, Type as T, type TString } from "@sinclair/typebox";

/**
 * The string formats the wire types use, and the small schema helpers built on them.
 *
 * JSON Schema (and so OpenAPI) names a format; TypeBox's Value.Check refuses a string
 * whose format nobody registered. Each format is registered here only when absent, as
 * Elysia does with the same uuid and date patterns: whichever module loads first, a
 * string the service sends passes both.
 */

const PATTERNS: Record<string, RegExp> = {
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  // Any absolute URI: a scheme, then no white space (sources may be local:<collection>/<id>).
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
};

for (const [name, re] of Object.entries(PATTERNS)) {
  if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, (value) => re.test(value));
}

/** A timestamp: ISO 8601 in UTC, as every timestamp of the service is. */
export function Timestamp(description = "ISO 8601, UTC"): TString {
  return T.String({ format: "date-time", description });
}

/** A calendar day, YYYY-MM-DD (UTC). */
export function Day(description = "YYYY-MM-DD, UTC"): TString {
  return T.String({ format: "date", description });
}

/** A call's request_id: a UUID that also names its run in the Console. */
export function RequestId(description = "identifies the call; the same id names the run in the Console"): TString {
  return T.String({ format: "uuid", description });
}

/** A timestamp that may be absent: e.g. a key never used, a run still running. */
export function NullableTimestamp(description: string) {
  return T.Union([Timestamp(), T.Null()], { description });
}
