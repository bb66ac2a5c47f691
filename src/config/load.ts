import { existsSync, readFileSync } from "node:fs";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../contract/errors.ts";
import { redactUrl } from "../util/redact-url.ts";
import { expected } from "./expected.ts";
import { nearMisses } from "./near-miss.ts";
import { type Config, ConfigSchema } from "./schema.ts";

/** Names of every variable the schema knows, in schema order (used by --help). */
export const configKeys = Object.keys(ConfigSchema.properties) as (keyof Config)[];

/** Parses KEY=VALUE lines of a .env file; quotes stripped, comments and blanks skipped. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2]!.trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, "");
    out[m[1]!] = v;
  }
  return out;
}

/**
 * Builds the config from the environment and, beneath it, a `.env` file in `cwd`.
 * Empty strings count as unset. Throws AppError("config_invalid") naming every bad variable at
 * once, each with what it expects; `warn` hears of names that look like a typo of one of ours.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
  warn: (line: string) => void = () => {},
): Config {
  const dotenvPath = `${cwd}/.env`;
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath, "utf8")) : {};
  for (const line of nearMisses(configKeys, env, fromFile)) warn(line);
  const raw: Record<string, unknown> = {};
  // As written: Convert below turns raw's strings into numbers in place.
  const given: Record<string, string> = {};
  const problems = new Map<string, string>();
  for (const key of configKeys) {
    const v = env[key] ?? fromFile[key];
    if (v === undefined || v === "") continue;
    raw[key] = given[key] = v.trim();
    if (!isLiteral(key, v.trim())) problems.set(key, shown(key, v.trim(), expected(key, v.trim())));
  }
  const withDefaults = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw));
  for (const e of Value.Errors(ConfigSchema, withDefaults)) {
    const key = e.path.replace(/^\//, "") as keyof Config;
    if (!problems.has(key)) problems.set(key, shown(key, given[key], expected(key, given[key] ?? "")));
  }
  const cfg = withDefaults as Config;
  if (cfg.OIDC_ISSUER && (!cfg.OIDC_CLIENT_ID || !cfg.OIDC_CLIENT_SECRET))
    problems.set(
      "OIDC_CLIENT_ID",
      "invalid OIDC_CLIENT_ID/OIDC_CLIENT_SECRET: both are required when OIDC_ISSUER is set",
    );
  if (cfg.SMTP_URL && !cfg.MAIL_FROM && !problems.has("MAIL_FROM"))
    problems.set("MAIL_FROM", "invalid MAIL_FROM=(unset): required when SMTP_URL is set");
  const lines = configKeys.filter((k) => problems.has(k)).map((k) => problems.get(k)!);
  if (lines.length === 1) throw new AppError("config_invalid", lines[0]!, 500);
  if (lines.length)
    throw new AppError(
      "config_invalid",
      `${lines.length} configuration variables are invalid:\n  ${lines.join("\n  ")}`,
      500,
    );
  return cfg;
}

/**
 * TypeBox's Convert truncates "2.5" to 2 for an integer and reads "1e3" as 1000 (or 1): a
 * number setting must be written as a plain decimal, a boolean as true/false/1/0.
 */
function isLiteral(key: keyof Config, v: string): boolean {
  const type = (ConfigSchema.properties[key] as { type?: string }).type;
  if (type === "integer") return /^\d+$/.test(v);
  if (type === "number") return /^\d+(\.\d+)?$/.test(v);
  if (type === "boolean") return /^(true|false|1|0)$/i.test(v);
  return true;
}

/** Secrets are never echoed into logs or the terminal (a start-up error is often pasted into a ticket). */
const SECRET_NAME = /SECRET|API_KEY/;

/** `invalid NAME="value": expected …`, the value shown only where that is safe. */
function shown(name: string, value: unknown, why: string): string {
  const v =
    value === undefined
      ? "(unset)"
      : SECRET_NAME.test(name)
        ? `(hidden, ${String(value).length} characters)`
        : name === "DATABASE_URL" || name === "SMTP_URL"
          ? JSON.stringify(redactUrl(String(value)))
          : JSON.stringify(value);
  return `invalid ${name}=${v}: ${why}`;
}

/** The address users reach: PUBLIC_URL, else http://HOST:PORT. */
export function publicUrl(cfg: Config): string {
  return (cfg.PUBLIC_URL ?? `http://${cfg.HOST}:${cfg.PORT}`).replace(/\/+$/, "");
}
