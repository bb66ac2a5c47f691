import { FormatRegistry, type Static, Type as T } from "@sinclair/typebox";
import { parseTrustProxy } from "./trust-proxy.ts";

// A bad entry in TRUST_PROXY stops the start naming the variable (not a silently smaller trusted set).
FormatRegistry.Set("ip-cidr-list", (v) => parseTrustProxy(v) !== null);
FormatRegistry.Set("smtp-url", (v) => {
  try {
    const u = new URL(v);
    return (u.protocol === "smtp:" || u.protocol === "smtps:") && u.hostname !== "";
  } catch {
    return false;
  }
});
FormatRegistry.Set("mail-address", (v) =>
  /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/.test(v),
);
// OTEL_EXPORTER_OTLP_HEADERS: key=value pairs, as every OpenTelemetry SDK reads them.
FormatRegistry.Set("otlp-headers", (v) => v.split(",").every((p) => /^\s*[^=\s]+\s*=/.test(p)));
FormatRegistry.Set("domain-list", (v) => v.split(",").every((d) => /^\s*@?[^\s,@]+\.[^\s,@]+\s*$/.test(d)));

/**
 * The databases ACADEMIC_PROVIDERS may name. The search provider table
 * (src/research/search/providers.ts) must have an academic row for each: it is keyed by this type.
 */
export const ACADEMIC_PROVIDER_NAMES = ["openalex", "arxiv", "crossref", "semantic_scholar"] as const;
export type AcademicProviderName = (typeof ACADEMIC_PROVIDER_NAMES)[number];
const ANY_ACADEMIC = `(${ACADEMIC_PROVIDER_NAMES.join("|")})`;

/**
 * Every configuration variable of README "Configuration", keyed by its
 * environment name so that a validation error can name the variable directly.
 * Descriptions double as the `--help` text.
 */
export const ConfigSchema = T.Object({
  PORT: T.Integer({ minimum: 0, maximum: 65535, default: 3000, description: "port the server listens on" }),
  HOST: T.String({ minLength: 1, default: "127.0.0.1", description: "address the server listens on" }),
  DATABASE_PATH: T.String({
    minLength: 1,
    default: "./data/research-query.db",
    description: "SQLite file; :memory: allowed",
  }),
  DATABASE_URL: T.Optional(
    T.String({
      pattern: "^postgres(ql)?://",
      description:
        "postgres://user:password@host:port/db puts all state in PostgreSQL, shared by every instance on it; unset: SQLite at DATABASE_PATH",
    }),
  ),
  DATABASE_POOL_MAX: T.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description:
      "PostgreSQL: connections this instance opens at most (every instance's count against the server's limit)",
  }),
  DATABASE_PREPARED_STATEMENTS: T.Boolean({
    default: true,
    description:
      "PostgreSQL: named prepared statements; false behind a pooler in transaction mode that does not keep them (PgBouncer before 1.21)",
  }),
  PUBLIC_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description: "address users reach (default http://HOST:PORT); https makes the cookie Secure",
    }),
  ),
  SESSION_SECRET: T.Optional(
    T.String({
      minLength: 16,
      description: "signs short-lived cookies; generated on first start and kept in the database",
    }),
  ),
  SESSION_TTL_DAYS: T.Number({
    exclusiveMinimum: 0,
    maximum: 365,
    default: 7,
    description: "session lifetime in days",
  }),
  DEFAULT_PLAN: T.Union([T.Literal("free"), T.Literal("pro"), T.Literal("researcher")], {
    default: "free",
    description: "plan of a new account: free, pro, researcher",
  }),
  PLAN_RUNS_FREE: T.Integer({ minimum: 0, default: 3, description: "monthly research runs, free plan" }),
  PLAN_RUNS_PRO: T.Integer({ minimum: 0, default: 40, description: "monthly research runs, pro plan" }),
  PLAN_RUNS_RESEARCHER: T.Integer({ minimum: 0, default: 100, description: "monthly research runs, researcher plan" }),
  PLAN_DOCS_FREE: T.Integer({
    minimum: 0,
    default: 1000,
    description: "documents an account may keep in its collections, free plan",
  }),
  PLAN_DOCS_PRO: T.Integer({
    minimum: 0,
    default: 10000,
    description: "documents an account may keep in its collections, pro plan",
  }),
  PLAN_DOCS_RESEARCHER: T.Integer({
    minimum: 0,
    default: 100000,
    description: "documents an account may keep in its collections, researcher plan",
  }),
  PLAN_BYTES_FREE: T.Integer({
    minimum: 0,
    default: 52428800,
    description: "bytes of text an account may keep in its collections, free plan (50 MiB)",
  }),
  PLAN_BYTES_PRO: T.Integer({
    minimum: 0,
    default: 1073741824,
    description: "bytes of text an account may keep in its collections, pro plan (1 GiB)",
  }),
  PLAN_BYTES_RESEARCHER: T.Integer({
    minimum: 0,
    default: 10737418240,
    description: "bytes of text an account may keep in its collections, researcher plan (10 GiB)",
  }),
  GROQ_API_KEY: T.Optional(T.String({ minLength: 1, description: "Groq API key (the LLM through groq-sdk)" })),
  GROQ_BASE_URL: T.Optional(
    T.String({ pattern: "^https?://", description: "Groq API address (groq-sdk default when unset)" }),
  ),
  OPENAI_BASE_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "an OpenAI-compatible server instead of Groq (Ollama, vLLM, llama.cpp), e.g. http://localhost:11434/v1",
    }),
  ),
  OPENAI_API_KEY: T.Optional(T.String({ minLength: 1, description: "key for OPENAI_BASE_URL, when it wants one" })),
  LLM_MODEL: T.String({ minLength: 1, default: "openai/gpt-oss-120b", description: "the writer's model" }),
  LLM_FAST_MODEL: T.String({ minLength: 1, default: "openai/gpt-oss-20b", description: "the planner's model" }),
  LLM_TOKEN_BUDGET: T.Integer({
    minimum: 1500,
    maximum: 1_000_000,
    default: 4000,
    description:
      "tokens one answer-writing call may reserve (prompt + max_tokens); 4000 fits two runs a minute in Groq's free 8,000 TPM",
  }),
  VERIFY_BASE_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "an OpenAI-compatible server asked for a second opinion on the few claims the check is least sure of, e.g. Ollama at http://localhost:11434/v1 (off when unset)",
    }),
  ),
  VERIFY_MODEL: T.String({
    minLength: 1,
    default: "bespoke-minicheck",
    description: "the model of VERIFY_BASE_URL that answers Yes or No to a document and a claim",
  }),
  VERIFY_API_KEY: T.Optional(T.String({ minLength: 1, description: "key for VERIFY_BASE_URL, when it wants one" })),
  SEARXNG_URL: T.Optional(
    T.String({ pattern: "^https?://", description: "SearXNG instance (JSON API) as web search provider" }),
  ),
  BRAVE_API_KEY: T.Optional(T.String({ minLength: 1, description: "Brave Search API key" })),
  BRAVE_BASE_URL: T.String({
    pattern: "^https?://",
    default: "https://api.search.brave.com",
    description: "Brave Search API address",
  }),
  TAVILY_API_KEY: T.Optional(T.String({ minLength: 1, description: "Tavily API key" })),
  TAVILY_BASE_URL: T.String({
    pattern: "^https?://",
    default: "https://api.tavily.com",
    description: "Tavily API address",
  }),
  OPENALEX_URL: T.String({
    pattern: "^https?://",
    default: "https://api.openalex.org",
    description: "OpenAlex API address",
  }),
  ARXIV_URL: T.String({ pattern: "^https?://", default: "https://export.arxiv.org", description: "arXiv API address" }),
  CROSSREF_URL: T.String({
    pattern: "^https?://",
    default: "https://api.crossref.org",
    description: "Crossref API address",
  }),
  SEMANTIC_SCHOLAR_URL: T.String({
    pattern: "^https?://",
    default: "https://api.semanticscholar.org",
    description: "Semantic Scholar API address",
  }),
  ACADEMIC_PROVIDERS: T.String({
    pattern: `^(none|${ANY_ACADEMIC}(,${ANY_ACADEMIC})*)$`,
    default: "openalex,arxiv,crossref",
    description: `comma list of ${ACADEMIC_PROVIDER_NAMES.join(", ")}; none turns them off`,
  }),
  LOCAL_SEARCH: T.Union([T.Literal("auto"), T.Literal("off"), T.Literal("only")], {
    default: "auto",
    description:
      "the collections (research-query corpus add) in runs: auto (searched beside the others whenever a collection holds documents), off, or only (the sole source: web and academic providers are not called)",
  }),
  CONTACT_EMAIL: T.Optional(
    T.String({ pattern: "^[^@\\s]+@[^@\\s]+$", description: "sent to OpenAlex and Crossref (polite pools)" }),
  ),
  FETCH_ALLOW_PRIVATE: T.Boolean({
    default: false,
    description: "allow fetching loopback/private addresses (tests and closed intranets only)",
  }),
  RUN_TIMEOUT_MS: T.Integer({
    minimum: 1000,
    maximum: 3_600_000,
    default: 240000,
    description: "a run's hard deadline in ms",
  }),
  RUN_RETENTION_DAYS: T.Integer({
    minimum: 0,
    maximum: 36_500,
    default: 0,
    description:
      "days runs are kept (their question, answer, sources and events); older ones are deleted by a sweep within 30 s of a start and then hourly, usage counts kept; 0 keeps them",
  }),
  OIDC_ISSUER: T.Optional(
    T.String({ pattern: "^https?://", description: "OpenID Connect issuer (enables identity-provider sign-in)" }),
  ),
  OIDC_CLIENT_ID: T.Optional(T.String({ minLength: 1, description: "OpenID Connect client id" })),
  OIDC_CLIENT_SECRET: T.Optional(T.String({ minLength: 1, description: "OpenID Connect client secret" })),
  OIDC_NAME: T.String({ minLength: 1, default: "SSO", description: "label of the identity-provider sign-in button" }),
  OIDC_SCOPES: T.String({
    minLength: 1,
    default: "openid email profile",
    description: "scopes asked of the identity provider",
  }),
  OIDC_ALLOWED_DOMAINS: T.Optional(
    T.String({
      minLength: 1,
      description: "comma list of email domains allowed to sign in through the identity provider",
    }),
  ),
  TRUST_PROXY: T.Optional(
    T.String({
      format: "ip-cidr-list",
      description:
        "comma list of proxy addresses or CIDRs (or loopback, private) whose X-Forwarded-For is believed; unset: none, the socket peer is the client",
    }),
  ),
  SIGNUP: T.Union([T.Literal("open"), T.Literal("closed")], {
    default: "open",
    description:
      "who may sign up through the API: open, or closed (accounts from the CLI or the identity provider only)",
  }),
  SIGNUP_DOMAINS: T.Optional(
    T.String({
      format: "domain-list",
      description: "comma list of email domains open sign-up is limited to (exact match, no subdomains)",
    }),
  ),
  AUDIT_RETENTION_DAYS: T.Integer({
    minimum: 0,
    maximum: 36_500,
    default: 365,
    description: "days the audit trail keeps an event (0 = keep every event)",
  }),
  KEYS_PER_ACCOUNT: T.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 100,
    description: "active API keys one account may hold (creating another is refused until one is revoked)",
  }),
  SIGNUP_PER_HOUR: T.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 10,
    description: "sign-ups one client address may make per hour (a burst of this many, then one every 60/N minutes)",
  }),
  SMTP_URL: T.Optional(
    T.String({
      format: "smtp-url",
      description:
        "smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465: mail for links that confirm a sign-up's address; unset: no mail, a sign-up's address is not proved",
    }),
  ),
  MAIL_FROM: T.Optional(
    T.String({
      format: "mail-address",
      description:
        "sender of the service's mail (you@acme.example, or Name <you@acme.example>); required with SMTP_URL",
    }),
  ),
  UPLOAD_MAX_FILE_BYTES: T.Integer({
    minimum: 1,
    default: 104857600,
    description: "largest file one upload to a collection may carry, in bytes (100 MiB)",
  }),
  UPLOAD_MAX_REQUEST_BYTES: T.Integer({
    minimum: 1,
    default: 268435456,
    description: "largest upload request body, all its files together, in bytes (256 MiB)",
  }),
  UPLOAD_MAX_FILES: T.Integer({
    minimum: 1,
    maximum: 100000,
    default: 1000,
    description: "most files one upload request may carry",
  }),
  UPLOAD_DIR: T.Optional(
    T.String({
      minLength: 1,
      description:
        "where uploaded files wait to be imported; default: uploads/ beside DATABASE_PATH (./data/uploads with PostgreSQL, a temporary folder for :memory:)",
    }),
  ),
  IMPORT_MEMORY_MB: T.Integer({
    minimum: 16,
    maximum: 1048576,
    default: 1024,
    description:
      "memory an import may take above the server's own before its worker is stopped and the file fails (a PDF or gzip bomb)",
  }),
  PARSE_MEMORY_MB: T.Integer({
    minimum: 16,
    maximum: 1048576,
    default: 256,
    description:
      "memory the process may grow by while pages and PDFs are parsed (web reader, corpus add) before the worker reading the PDF is stopped and the PDF skipped as too large (a PDF bomb)",
  }),
  MCP_MAX_CONCURRENT: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description:
      "research calls `mcp` runs at once in local mode; more are answered at once with the tool error too_many_calls",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "OpenTelemetry collector's base URL (traces go to its /v1/traces over OTLP/HTTP); unset with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: no traces, no tracing code loaded",
    }),
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: T.Optional(
    T.String({ pattern: "^https?://", description: "the traces URL itself (wins over OTEL_EXPORTER_OTLP_ENDPOINT)" }),
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: T.Union([T.Literal("http/protobuf"), T.Literal("http/json")], {
    default: "http/protobuf",
    description: "http/protobuf or http/json",
  }),
  OTEL_EXPORTER_OTLP_HEADERS: T.Optional(
    T.String({
      format: "otlp-headers",
      description: "headers sent to the collector: key=value,key2=value2 (values URL-encoded)",
    }),
  ),
  OTEL_SERVICE_NAME: T.String({ minLength: 1, default: "research-query", description: "service.name of every span" }),
  OTEL_TRACES_SAMPLER: T.Union(
    [
      T.Literal("always_on"),
      T.Literal("always_off"),
      T.Literal("traceidratio"),
      T.Literal("parentbased_always_on"),
      T.Literal("parentbased_always_off"),
      T.Literal("parentbased_traceidratio"),
    ],
    { default: "parentbased_always_on", description: "which traces are kept (the OpenTelemetry sampler names)" },
  ),
  OTEL_TRACES_SAMPLER_ARG: T.Number({
    minimum: 0,
    maximum: 1,
    default: 1,
    description: "the ratio of the *traceidratio samplers",
  }),
  LOG_LEVEL: T.Union(
    [T.Literal("debug"), T.Literal("info"), T.Literal("warn"), T.Literal("error"), T.Literal("silent")],
    { default: "info", description: "debug, info, warn, error, silent" },
  ),
});

export type Config = Static<typeof ConfigSchema>;
