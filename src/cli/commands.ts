import { PLANS } from "../auth/accounts.ts";
import { toolsHelp } from "../mcp/tools.ts";
import type { Command } from "./command.ts";

// Handlers load on use: `--help` or a usage error never loads the engine or the store.
const json = (help: string) => ({ type: "boolean" as const, help });
const EMAIL = { name: "EMAIL", help: "the account's email" };
const NAME = { name: "NAME", help: "the collection" };
const READ_AS = {
  type: "string" as const,
  value: "EMAIL",
  repeatable: true as const,
  help: "read this account's private collections too (the shared ones are always read)",
};
const ONE_OWNER = {
  type: "string" as const,
  value: "EMAIL",
  help: "the collection of this account (where several have that name)",
};

/**
 * Every command of the CLI. Adding one is adding an entry: its flags and positionals are checked
 * before it runs (unknown flag, missing value, missing or extra argument → exit 2), and `--help`,
 * `NAME --help` and the usage line of its errors are written from it.
 */
export const COMMANDS: readonly Command[] = [
  {
    name: "serve",
    summary: "start the server (HOST:PORT) until SIGTERM or SIGINT; exits 0 after draining",
    positionals: [],
    options: {},
    configHelp: true,
    run: async ({ cfg }) => {
      await (await import("./serve.ts")).serveCommand(cfg);
      return null;
    },
  },
  {
    name: "ask",
    summary: "one research run in the terminal (no server, no key, no account)",
    help: `One research run in the terminal, through the same run service as the API: progress on stderr,
the answer and its numbered sources on stdout. Needs no server, key or account, and records nothing.
The question is one argument (quote it), or - to read it from standard input to its end; a question
is never read from standard input without the -. Beside the web it searches the shared collections
of the database, and the private ones of each account --owner names.`,
    positionals: [{ name: "QUESTION|-", help: "the question in quotes, or - to read it from standard input" }],
    options: {
      json: json("print the run's envelope as JSON (as POST /api/query answers), whatever its status"),
      owner: READ_AS,
    },
    exits:
      "For ask, 1 means the run ended with status error (--json still prints its envelope); 2 also an --owner no account has.",
    run: async (input) => (await import("./ask.ts")).askCommand(input),
  },
  {
    name: "extract",
    summary: "print the main text the engine reads from one HTML page",
    help: "Prints the title and main text the engine reads from one page (the same extractor and, for a URL, the same SSRF guard).",
    positionals: [{ name: "FILE|URL|-", help: "an HTML file, an http(s) URL, or - for standard input" }],
    options: { json: json("print {title, text} as JSON") },
    run: async (input) => (await import("./extract.ts")).extractCommand(input),
  },
  {
    name: "verify",
    summary: "check claims against their evidence sentences, as the runs do (JSONL in, JSONL out)",
    help: `The claim check the runs use on every cited sentence, as a filter for evaluation and scripts.
Reads JSONL on standard input, one {"id", "claim", "evidence": [sentences], "language"?} a line, and
writes one {"id", "quotes", "support", "verdict"} line for each, in order: quotes are indices into
evidence, best first; support is in [0, 1] (a citation counts as supported from 0.45; the runs
remove a marker below 0.15); verdict is supported, partial, unsupported or contradicted. A line may
give "sources": [{"id", "evidence": [sentences]}] instead of "evidence": its answer is then
{"id", "sources": [{"id", "quotes", "support", "verdict"}], "best"}, best the id of the source that
backs the claim best (where a run would move its marker), or null. No model is called. A line that
can't be read (evidence and sources both, or neither) is named on stderr and skipped.`,
    positionals: [{ name: "-", help: "read the claims from standard input", choices: ["-"] }],
    options: {
      language: {
        type: "string",
        value: "CODE",
        help: "the claims' language (en, de, zh, …) where a line names none; default en",
      },
    },
    exits: "For verify, 1 means at least one line could not be read (the others were still checked).",
    run: async (input) => (await import("./verify.ts")).verifyCommand(input),
  },
  {
    name: "mcp",
    summary: "an MCP server on stdin/stdout for AI agents: research (and extract) as tools",
    help: `An MCP (Model Context Protocol) server over stdio, for agents such as Claude Desktop, Claude Code,
Cursor, VS Code or Zed. Its tools:
${toolsHelp()}
Local mode (default) runs the engine on this machine with this machine's configuration, like ask:
no server, no key, nothing recorded; it reads the shared collections and the private ones of each
account --owner names. With --server URL each research call is one call of that
server's POST /api/query/stream with the key in RQ_API_KEY: counted against the account's
allowance and shown in its Console. Logs go to stderr; stdout carries only protocol messages.`,
    positionals: [],
    options: {
      server: {
        type: "string",
        value: "URL",
        help: "a research-query server to run research on (the key in RQ_API_KEY)",
      },
      owner: { ...READ_AS, help: `${READ_AS.help}; local mode only (with --server the key's account decides)` },
    },
    exits:
      "For mcp, 0 means the client closed standard input (or SIGINT/SIGTERM): the server stopped; 2 also an --owner no account has, or --owner with --server.",
    run: async (input) => (await import("./mcp.ts")).mcpCommand(input),
  },
  {
    name: "openai",
    summary: "OpenAI's chat completions for chat clients (Open WebUI, LibreChat, the SDKs): research as a model",
    help: `Serves GET /v1/models and POST /v1/chat/completions (streamed or not) on HOST:PORT, so any
OpenAI-compatible chat client can ask research-query: the answer's Markdown with its [S1] markers and
a numbered list of its sources, url_citation annotations, progress as reasoning_content. With --server
URL each call is one call of that server's POST /api/query/stream with the caller's own key (its
Authorization header): counted against that account's allowance, shown in its Console. Without it,
runs answer here from this machine's configuration and database, like ask, with no key asked: keep
it on loopback. Logs go to stdout; SIGTERM or SIGINT drains the calls in flight, then it exits 0.`,
    positionals: [],
    options: {
      server: {
        type: "string",
        value: "URL",
        help: "a research-query server to run research on with each caller's key",
      },
      host: { type: "string", value: "H", help: "the address to listen on (default 127.0.0.1)" },
      port: { type: "string", value: "P", help: "the port to listen on (default 3001; 0 picks a free one)" },
    },
    run: async (input) => (await import("./openai.ts")).openaiCommand(input),
  },
  {
    name: "account create",
    summary: "create an account (password from RQ_PASSWORD or a prompt); prints it as JSON",
    positionals: [EMAIL],
    options: { plan: { type: "string", value: "PLAN", help: "its plan (default: DEFAULT_PLAN)", choices: PLANS } },
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./accounts.ts")).accountCreate(input),
  },
  {
    name: "account set-plan",
    summary: "change an account's plan; prints it as JSON",
    positionals: [EMAIL, { name: "PLAN", help: "the new plan", choices: PLANS }],
    options: {},
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./accounts.ts")).accountSetPlan(input),
  },
  {
    name: "account list",
    summary: "every account: email, plan, whether its address is proven, created",
    positionals: [],
    options: { json: json("print {accounts: [{id, email, plan, created_at, email_status}]} as JSON, oldest first") },
    run: async (input) => (await import("./accounts.ts")).accountList(input),
  },
  {
    name: "account confirm",
    summary: "mark addresses as proven, so a sign-in through the identity provider joins their accounts",
    help: `Marks the addresses of existing accounts as proven: the operator's word that each belongs to
its account's holder. A sign-in through the identity provider with a verified email then joins that
account (its password and keys stay) instead of taking it over and revoking them, which is what
happens to an unproven address. Run it before turning OIDC on for accounts made by sign-up without
mail; vouch only for addresses you know (a squatter's address confirmed keeps the squatter in).
--all-unproven confirms every unproven address; one still waiting for its mailed link is left to
it (name it to confirm it anyway). Prints {confirmed, unknown} as JSON.`,
    positionals: [{ name: "EMAIL", help: "the accounts' emails", optional: true, variadic: true }],
    options: {
      "all-unproven": { type: "boolean", help: "every account whose address is unproven (instead of EMAIL...)" },
    },
    oneOf: [{ names: ["EMAIL", "all-unproven"], required: true }],
    exits:
      "For account confirm, 1 means that no account has one of the emails (the others are confirmed); 2 also neither or both of EMAIL... and --all-unproven.",
    audited: (input) => input.args.join(" ") || "--all-unproven",
    run: async (input) => (await import("./accounts.ts")).accountConfirm(input),
  },
  {
    name: "account delete",
    summary: "delete an account and everything of it (asks to type the email unless --yes)",
    help: `Deletes the account and everything keyed by it: sessions, keys, identity links, runs with their
answers, usage counters, private collections with their documents, uploads in flight and their
spooled files. Its shared collections stay, owned by no one (the operator's). The audit trail keeps
the deletion, naming the person by a one-way hash. Asks to type the email again unless --yes; with a
standard input that is not a terminal, --yes is required. Prints {deleted} as JSON.`,
    positionals: [EMAIL],
    options: { yes: { type: "boolean", help: "delete without asking to type the email again" } },
    exits:
      "For account delete, 1 means that no account has that email, or the email typed was another (nothing deleted); 2 also no --yes on a standard input that is not a terminal.",
    run: async (input) => (await import("./accounts.ts")).accountDelete(input),
  },
  {
    name: "key create",
    summary: "print a new API key for the account (shown this once)",
    positionals: [EMAIL],
    options: { name: { type: "string", value: "NAME", help: "a label for the key (at most 100 characters)" } },
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./keys.ts")).keyCreate(input),
  },
  {
    name: "key list",
    summary: "the account's keys: id, name, prefix, status, created, last used (never the key)",
    positionals: [EMAIL],
    options: { json: json("print {keys: [...]} as JSON, newest first, as GET /api/console/keys answers it") },
    run: async (input) => (await import("./keys.ts")).keyList(input),
  },
  {
    name: "key revoke",
    summary: "revoke a key by its id (from key list); revoking it again is not an error",
    positionals: [{ name: "KEY_ID", help: "the key's id, as key list shows it" }],
    options: { json: json("print {id, status, revoked_at} as JSON, as DELETE /api/console/keys/{key_id} answers it") },
    exits: "For key revoke, 1 means that no key has that id.",
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./keys.ts")).keyRevoke(input),
  },
  {
    name: "corpus add",
    summary: "import files and folders (PDF, HTML, Markdown, text, JSONL) into a collection",
    help: `Imports files and folders (recursively) into a collection of the service's database, which runs
then search beside the web. PDF, HTML, Markdown and text files are one document each, known by their
path relative to the folder given (a file given directly: its name); links are followed while they
stay inside the folder given (--follow-links: all); a .jsonl or .jsonl.gz file holds
one document a line, {id, title, text, url?}. An unchanged document is left alone, a changed one
replaced. What cannot be read (binary, encrypted PDF, a bad JSONL line…) is named on stderr and
skipped; each document is cut at 2,000,000 characters. Progress goes to stderr, the summary to stdout.
A new collection needs --owner EMAIL (private to that account) or --shared (every account reads it);
adding to an existing one needs neither, and a flag that disagrees with how it is shared imports
nothing (corpus share and corpus unshare change that).`,
    positionals: [{ name: "PATH", help: "files or folders to import", variadic: true }],
    options: {
      collection: { type: "string", value: "NAME", help: "the collection to import into (default: default)" },
      owner: {
        type: "string",
        value: "EMAIL",
        help: "the account whose collection it is (a new one is private to it)",
      },
      shared: { type: "boolean", help: "a collection every account reads (with no --owner: owned by no one)" },
      "follow-links": {
        type: "boolean",
        help: "also follow links that lead out of a folder given (skipped with a message otherwise)",
      },
    },
    exits:
      "For corpus add, 1 means nothing could be imported from any PATH; 2 also a new collection without --owner or --shared, or a flag that disagrees with the collection's visibility (nothing imported); 130 (Ctrl-C) stops after the batch being written, every document written whole.",
    audited: (input) => (input.options.collection as string | undefined) ?? "default",
    run: async (input) => (await import("./corpus-add.ts")).corpusAdd(input),
  },
  {
    name: "corpus list",
    summary: "every collection (owner, visibility, documents, passages, size), or one collection's documents",
    positionals: [],
    options: {
      collection: { type: "string", value: "NAME", help: "list this collection's documents instead" },
      owner: { type: "string", value: "EMAIL", help: "with --collection: the collection of this account" },
      json: json(
        "print {collections: [{name, owner, visibility, ...}]}, or with --collection {collection, documents: [...]}, as JSON",
      ),
    },
    exits: "For corpus list, 1 means that there is no collection of that name.",
    run: async (input) => (await import("./corpus-list.ts")).corpusList(input),
  },
  {
    name: "corpus remove",
    summary: "remove a collection, or only the documents named from it",
    positionals: [
      NAME,
      {
        name: "DOC_ID",
        help: "documents to remove (as corpus list shows them); none: the whole collection",
        optional: true,
        variadic: true,
      },
    ],
    options: {
      owner: ONE_OWNER,
      shared: { type: "boolean", help: "the collection with no owner (made by corpus add --shared alone)" },
      json: json("print {collection, removed, missing} as JSON"),
    },
    oneOf: [{ names: ["owner", "shared"] }],
    exits:
      "For corpus remove, 1 means that the collection or one of the documents named is not there (the others are removed); 2 also several collections of that name and neither --owner nor --shared (nothing removed).",
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./corpus-remove.ts")).corpusRemove(input),
  },
  {
    name: "corpus share",
    summary: "let every account's runs read a collection",
    help: `Makes a collection shared: every account's runs search it (and, with sign-up open, those of
anyone who signs up: a note says so). Sharing a shared collection again changes nothing.`,
    positionals: [NAME],
    options: { owner: ONE_OWNER, json: json("print {collection: {name, owner, visibility, ...}} as JSON") },
    exits: "For corpus share, 1 means that there is no collection of that name.",
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./corpus-share.ts")).corpusShare(input),
  },
  {
    name: "corpus unshare",
    summary: "make a collection private to one account (--owner EMAIL is required)",
    help: `Makes a collection private: only the runs of the account --owner names search it. That account's
own collection of that name, else the one with no owner, which becomes that account's.`,
    positionals: [NAME],
    options: {
      owner: { type: "string", value: "EMAIL", required: true, help: "the account it becomes private to" },
      json: json("print {collection: {name, owner, visibility, ...}} as JSON"),
    },
    exits:
      "For corpus unshare, 1 means that neither that account nor the operator (no owner) has a collection of that name, or that the account already has a private one of that name beside one with no owner (nothing changed).",
    audited: (input) => input.args[0] ?? null,
    run: async (input) => (await import("./corpus-share.ts")).corpusUnshare(input),
  },
  {
    name: "corpus search",
    summary: "search the collections: documents best first, with a snippet",
    help:
      "QUERY - reads JSONL {id, text} queries on stdin and writes one line per query,\n" +
      "{id, results: [{doc_id, title, score}]}, best first (default --limit 100 there, 10 otherwise);\n" +
      "a bad line is reported on stderr with its number and skipped.",
    positionals: [{ name: "QUERY", help: "the question, or - for JSONL queries on stdin" }],
    options: {
      collection: { type: "string", value: "NAME", help: "search only the collections of this name it reads" },
      owner: READ_AS,
      limit: { type: "string", value: "N", help: "results per query (default 10; 100 with -)" },
      json: json("print {results: [{doc_id, collection, title, url?, score, snippet}]} as JSON"),
    },
    run: async (input) => (await import("./corpus-search.ts")).corpusSearch(input),
  },
  {
    name: "audit",
    summary: "the audit trail: who did what, newest first (sign-ins, keys, collections, operators' commands)",
    positionals: [],
    options: {
      since: {
        type: "string",
        value: "ISO",
        help: "only events from this time on (2026-11-01 or 2026-11-01T08:00:00Z)",
      },
      account: { type: "string", value: "EMAIL", help: "only events where this account is the actor or the target" },
      json: json("print {events: [{at, action, actor, target, ip, detail}]} as JSON, newest first"),
    },
    exits: "For audit, 1 means that no account has the email of --account, or --since is not a time.",
    run: async (input) => (await import("./audit.ts")).auditCommand(input),
  },
  {
    name: "db copy",
    summary: "copy the SQLite database into an empty PostgreSQL one, or PostgreSQL into a new SQLite file",
    help: `Copies every account, session, key, run and its timeline, allowance counter, idempotency key,
setting, identity link and collection from the SQLite database at DATABASE_PATH into the PostgreSQL
database named by --to, then compares every table's row count on both sides. The target is migrated
first and must be empty; the copy is one transaction (all of it or nothing). Stop the server first, or
copy from a backup: what it writes after the copy starts is not copied. Then start the instances with
DATABASE_URL set to the same URL.
With DATABASE_URL set and --to a file, the other way: the PostgreSQL database, read from one snapshot
while the instances run, into a new SQLite file (every table counted on both sides) that db restore
can put in place: a backup of PostgreSQL, or the way back to one server.`,
    positionals: [],
    options: {
      to: {
        type: "string",
        value: "URL|FILE",
        required: true,
        help: "the target: postgres://user:password@host:port/db, or (with DATABASE_URL set) a new SQLite file",
      },
    },
    exits:
      "For db copy, 1 means the copy did not happen: the target is not empty or not reachable, or a count differed (nothing was kept).",
    run: async (input) => (await import("./db-copy.ts")).dbCopy(input),
  },
  {
    name: "db backup",
    summary: "a consistent copy of the SQLite database while the server runs (PostgreSQL: pg_dump, db copy)",
    help: `Writes a consistent copy of the SQLite database at DATABASE_PATH to FILE while servers keep
answering: one snapshot read by SQLite's VACUUM INTO (never a copy of the file, which a write in
progress tears), written beside FILE under a temporary name, fsynced, then renamed. The copy holds
its schema version (the migrations table), which db restore checks. An existing FILE is refused
unless --overwrite. With DATABASE_URL (PostgreSQL) it is refused: back up with pg_dump -Fc
-f FILE "$DATABASE_URL" while the instances run (restored with pg_restore), or into a SQLite file
with db copy --to FILE (restored with db restore).`,
    positionals: [{ name: "FILE", help: "where the copy goes" }],
    options: { overwrite: json("replace FILE if it exists") },
    exits:
      "For db backup, 1 means no backup was written: FILE exists, the database is missing, or DATABASE_URL is set.",
    run: async (input) => (await import("./db-backup.ts")).dbBackup(input),
  },
  {
    name: "db restore",
    summary: "put a backup in place of the SQLite database (with no server running)",
    help: `Puts the backup FILE in place of the SQLite database at DATABASE_PATH. Refused while a server
(or any research-query process) has the database open: stop it first. The backup is checked first
(PRAGMA integrity_check, and a schema this binary knows: a file from a newer release is refused by
its schema number; an older one is migrated when the server starts). The replaced database is kept
beside it as DATABASE_PATH.replaced-<time>. Then start the server.`,
    positionals: [{ name: "FILE", help: "a file db backup wrote" }],
    options: {},
    exits:
      "For db restore, 1 means nothing was replaced: a process has the database open, or FILE is damaged, not ours or from a newer schema.",
    run: async (input) => (await import("./db-backup.ts")).dbRestore(input),
  },
];
