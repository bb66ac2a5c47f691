import { type Config, ConfigSchema } from "./schema.ts";

/**
 * The configuration's variables in groups, for `--help` and `serve --help`: each variable goes to
 * the first group whose test takes it, the last (Other) takes the rest, so a new variable is listed
 * without being named here. Descriptions and defaults are the schema's.
 */
const GROUPS: readonly { title: string; takes: (name: string) => boolean }[] = [
  { title: "Server", takes: (n) => ["PORT", "HOST", "PUBLIC_URL", "TRUST_PROXY", "LOG_LEVEL"].includes(n) },
  { title: "Database", takes: (n) => n.startsWith("DATABASE_") },
  { title: "Model", takes: (n) => /^(GROQ|OPENAI|LLM|VERIFY)_/.test(n) },
  {
    title: "Search and runs",
    takes: (n) =>
      /^(SEARXNG|BRAVE|TAVILY|OPENALEX|ARXIV|CROSSREF|SEMANTIC_SCHOLAR|ACADEMIC)_/.test(n) ||
      ["LOCAL_SEARCH", "CONTACT_EMAIL", "FETCH_ALLOW_PRIVATE", "RUN_TIMEOUT_MS", "MCP_MAX_CONCURRENT"].includes(n),
  },
  { title: "Plans", takes: (n) => n === "DEFAULT_PLAN" || n.startsWith("PLAN_") },
  {
    title: "Accounts and sign-in",
    takes: (n) =>
      /^(SESSION|SIGNUP|OIDC)_|^SIGNUP$/.test(n) || ["KEYS_PER_ACCOUNT", "SMTP_URL", "MAIL_FROM"].includes(n),
  },
  { title: "Collections and uploads", takes: (n) => /^(UPLOAD|IMPORT|PARSE)_/.test(n) },
  { title: "Retention", takes: (n) => n.endsWith("_RETENTION_DAYS") },
  { title: "Traces", takes: (n) => n.startsWith("OTEL_") },
  { title: "Other", takes: () => true },
];

export interface ConfigLine {
  name: keyof Config;
  description: string;
  default?: unknown;
}

/** Every variable, in its group, in the schema's order within it. */
export function configGroups(): { title: string; lines: ConfigLine[] }[] {
  const groups = GROUPS.map((g) => ({ title: g.title, lines: [] as ConfigLine[] }));
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const s = schema as { default?: unknown; description?: string };
    const at = GROUPS.findIndex((g) => g.takes(name));
    groups[at]!.lines.push({ name: name as keyof Config, description: s.description ?? "", default: s.default });
  }
  return groups.filter((g) => g.lines.length);
}
