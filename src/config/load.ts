import { existsSync, readFileSync } from "node:fs";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../contract/errors.ts";
import { redactUrl } from "../util/redact-url.ts";
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
 * Empty strings count as unset. Throws AppError("config_invalid") naming the variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): Config {
  const dotenvPath = `${cwd}/.env`;
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath, "utf8")) : {};
  const raw: Record<string, unknown> = {};
  for (const key of configKeys) {
    const v = env[key] ?? fromFile[key];
    if (v === undefined || v === "") continue;
    const problem = notLiteral(key, v.trim());
    if (problem) throw invalid(key, v, problem);
    raw[key] = v.trim();
  }
  const withDefaults = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw));
  const first = Value.Errors(ConfigSchema, withDefaults).First();
  if (first) {
    const name = first.path.replace(/^\//, "") || "configuration";
    throw invalid(name, raw[name], first.message);
  }
  const cfg = withDefaults as Config;
  if (cfg.OIDC_ISSUER && (!cfg.OIDC_CLIENT_ID || !cfg.OIDC_CLIENT_SECRET)) {
    throw new AppError(
      "config_invalid",
      "invalid OIDC_CLIENT_ID/OIDC_CLIENT_SECRET: both are required when OIDC_ISSUER is set",
      500,
    );
  }
  if (cfg.SMTP_URL && !cfg.MAIL_FROM)
    throw new AppError("config_invalid", "invalid MAIL_FROM=(unset): required when SMTP_URL is set", 500);
  return cfg;
}

/**
 * TypeBox's Convert truncates "2.5" to 2 for an integer and reads "1e3" as 1000 (or 1): a
 * number setting must be written as a plain decimal, a boolean as true/false/1/0.
 */
function notLiteral(key: keyof Config, v: string): string | undefined {
  const type = (ConfigSchema.properties[key] as { type?: string }).type;
  if (type === "integer" && !/^\d+$/.test(v)) return "Expected a whole number (digits only)";
  if (type === "number" && !/^\d+(\.\d+)?$/.test(v)) return "Expected a number";
  if (type === "boolean" && !/^(true|false|1|0)$/i.test(v)) return "Expected true or false";
  return undefined;
}

/** Secrets are never echoed into logs or the terminal (a start-up error is often pasted into a ticket). */
const SECRET_NAME = /SECRET|API_KEY/;

function invalid(name: string, value: unknown, why: string): AppError {
  const shown =
    value === undefined
      ? "(unset)"
      : SECRET_NAME.test(name)
        ? `(hidden, ${String(value).length} characters)`
        : name === "DATABASE_URL" || name === "SMTP_URL"
          ? JSON.stringify(redactUrl(String(value)))
          : JSON.stringify(value);
  return new AppError("config_invalid", `invalid ${name}=${shown}: ${why}`, 500);
}

/** The address users reach: PUBLIC_URL, else http://HOST:PORT. */
export function publicUrl(cfg: Config): string {
  return (cfg.PUBLIC_URL ?? `http://${cfg.HOST}:${cfg.PORT}`).replace(/\/+$/, "");
}
