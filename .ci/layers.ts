// The layer table: the folders of src/, bottom first, and what each may import
// (docs/architecture.md "Import direction", docs/decisions/0130-a-fence-that-refuses-by-default.md).
// `.ci/fence.ts` checks every import of src/ against it and refuses what it does not name: a folder
// missing here, as importer or imported, fails `bun run lint`.
//
// A file belongs to the longest `unit` that starts its path (src/runs/http/sse.ts is in
// `src/runs/http`, src/runs/instances/attach.ts in `src/runs`); a file may import its own unit.
// `may` names units exactly; `x/**` is x and every unit under it; a path outside src/ (`db/**`)
// is matched the same way. `types` names units it may import types from only (`import type`).
// Each unit may name only units above it in this table, so the direction cannot turn back.

export interface Layer {
  readonly unit: string;
  readonly may: readonly string[];
  /** Units it may import types from, and nothing else. */
  readonly types?: readonly string[];
  /** Files inside `may` it may still not import. */
  readonly never?: readonly string[];
  /** Why it sits where it does: the message of a refused import. */
  readonly why: string;
}

const BOTTOM = ["src/contract", "src/util", "src/text"];
const BELOW_FEATURES = [...BOTTOM, "src/config", "src/store", "src/http"];
/** Below runs: every feature's folder, whole. */
const FEATURES = [...BELOW_FEATURES, "src/metrics", "src/auth", "src/corpus", "src/keys", "src/research"];
const BELOW_RUNS = [...FEATURES, "src/collections/**"];

export const LAYERS: readonly Layer[] = [
  { unit: "src/contract", may: [], why: "the wire types and the error table sit at the bottom" },
  { unit: "src/util", may: ["src/contract"], why: "util sits at the bottom, beside the contract" },
  { unit: "src/text", may: ["src/contract", "src/util"], why: "bytes to text sits below research and collections" },
  { unit: "src/types", may: [], why: "ambient declarations stand apart" },
  { unit: "src/build", may: [], why: "the build script stands apart" },
  { unit: "src/config", may: BOTTOM, why: "config is read by everything above it and reads the bottom line" },
  { unit: "src/store", may: [...BOTTOM, "src/config", "db/**"], why: "the store sits below every feature" },
  {
    unit: "src/http",
    may: ["src/contract", "src/util", "src/config"],
    never: ["src/config/load.ts"],
    why: "the HTTP kit knows the contract, config (never its loader) and util, no feature",
  },
  { unit: "src/metrics", may: BELOW_FEATURES, why: "metrics sit beside auth and corpus" },
  { unit: "src/auth", may: BELOW_FEATURES, why: "auth sits beside corpus and metrics" },
  { unit: "src/corpus", may: BELOW_FEATURES, why: "corpus sits below research, whose local provider searches it" },
  { unit: "src/keys", may: [...BELOW_FEATURES, "src/auth"], why: "keys sit on auth" },
  {
    unit: "src/research",
    may: [...BELOW_FEATURES, "src/metrics", "src/corpus"],
    why: "research sits on corpus and metrics",
  },
  {
    unit: "src/collections",
    may: [...BELOW_FEATURES, "src/metrics", "src/auth", "src/corpus"],
    why: "the collections' core sits below their uploads and import",
  },
  {
    unit: "src/collections/uploads",
    may: [...BELOW_FEATURES, "src/metrics", "src/auth", "src/corpus", "src/collections"],
    types: ["src/collections/import"],
    why: "uploads hand files to the import queue, which they know by its type only",
  },
  {
    unit: "src/collections/import",
    may: [...BELOW_FEATURES, "src/metrics", "src/auth", "src/corpus", "src/collections", "src/collections/uploads"],
    why: "the import reads what uploads spooled",
  },
  {
    unit: "src/runs",
    may: BELOW_RUNS,
    why: "the run core sits on the features, below its HTTP adapters",
  },
  {
    unit: "src/runs/http",
    may: [...FEATURES, "src/runs"],
    why: "the query and research endpoints adapt the run service to HTTP",
  },
  {
    unit: "src/console",
    may: [...BELOW_RUNS, "src/runs/**"],
    why: "the Console sits beside MCP, below the server",
  },
  {
    unit: "src/mcp",
    may: [...BELOW_RUNS, "src/runs/**"],
    why: "MCP sits beside the Console, below the CLI",
  },
  {
    unit: "src/openai",
    may: [...BELOW_RUNS, "src/runs/**", "src/mcp"],
    why: "the OpenAI-compatible front runs on MCP's backends (the run service, or a server's stream followed), below the CLI",
  },
  { unit: "src/web", may: ["src/contract"], why: "the browser app shares only the contract with the service" },
  {
    unit: "src/server",
    may: [...BELOW_RUNS, "src/runs/**", "src/console", "src/mcp", "src/web"],
    why: "the server is the composition root: only the CLI sits on it",
  },
  {
    unit: "src/cli",
    may: [...BELOW_RUNS, "src/runs/**", "src/console", "src/mcp", "src/openai", "src/server", "package.json"],
    why: "the CLI is the top; the browser app is bundled by the server, never imported",
  },
];
