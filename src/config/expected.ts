import { ACADEMIC_PROVIDER_NAMES, type Config, ConfigSchema } from "./schema.ts";

/**
 * What a variable's value must look like, in words an operator can act on: the allowed values,
 * the range, the shape. A bad value is reported with these words, never with the schema's own
 * (a union, a regex), so the message says how to fix it
 * (docs/decisions/0146-configuration-errors-in-plain-words.md).
 */
interface Described {
  type?: string;
  anyOf?: readonly { const?: unknown }[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
}

/** The shapes the schema's patterns stand for. A new pattern in the schema gets its words here. */
const PATTERNS: Readonly<Record<string, string>> = {
  "^https?://": "an http:// or https:// address",
  "^postgres(ql)?://": "a postgres:// or postgresql:// URL (postgres://user:password@host:port/db)",
  "^[^@\\s]+@[^@\\s]+$": "an email address (name@example.org)",
};

/** The shapes of the schema's formats (schema.ts registers their checks). */
const FORMATS: Readonly<Record<string, string>> = {
  "ip-cidr-list": "a comma list of addresses or CIDRs (10.0.0.1, 10.0.0.0/8), or loopback, private",
  "smtp-url": "an smtp:// or smtps:// address with a host (smtp://user:password@host:587)",
  "mail-address": "an email address, or Name <name@example.org>",
  "domain-list": "a comma list of email domains (example.org, corp.example)",
  "otlp-headers": "a comma list of key=value (api-key=abc123,x-team=research)",
};

/** Variables whose words depend on the value given: the part that is wrong is named. */
const BY_VALUE: Partial<Record<keyof Config, (value: string) => string>> = {
  ACADEMIC_PROVIDERS: (value) => {
    const unknown = value.split(",").filter((p) => !(ACADEMIC_PROVIDER_NAMES as readonly string[]).includes(p.trim()));
    const verb = unknown.length === 1 ? "is not one of them" : "are not among them";
    const named = unknown.length ? ` (${unknown.map((p) => JSON.stringify(p)).join(", ")} ${verb})` : "";
    return `none, or a comma list of ${ACADEMIC_PROVIDER_NAMES.join(", ")}${named}`;
  },
};

function range(s: Described, what: string): string {
  const low = s.exclusiveMinimum !== undefined ? `above ${s.exclusiveMinimum}` : undefined;
  if (s.minimum !== undefined && s.maximum !== undefined) return `${what} from ${s.minimum} to ${s.maximum}`;
  if (low && s.maximum !== undefined) return `${what} ${low} and at most ${s.maximum}`;
  if (s.minimum !== undefined) return `${what} of at least ${s.minimum}`;
  return low ? `${what} ${low}` : what;
}

/** "expected one of auto, off, only", "expected a whole number from 0 to 65535", … */
export function expected(key: keyof Config, value: string): string {
  const s = ConfigSchema.properties[key] as Described;
  const byValue = BY_VALUE[key];
  if (byValue) return `expected ${byValue(value)}`;
  if (s.anyOf) return `expected one of ${s.anyOf.map((o) => String(o.const)).join(", ")}`;
  if (s.type === "integer") return `expected ${range(s, "a whole number")} (digits only)`;
  if (s.type === "number") return `expected ${range(s, "a number")}`;
  if (s.type === "boolean") return "expected true or false (or 1, 0)";
  if (s.format && FORMATS[s.format]) return `expected ${FORMATS[s.format]}`;
  if (s.pattern && PATTERNS[s.pattern]) return `expected ${PATTERNS[s.pattern]}`;
  if (s.minLength !== undefined && s.minLength > 1) return `expected at least ${s.minLength} characters`;
  return "expected a value";
}
