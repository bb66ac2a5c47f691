import type { CallToolResult, ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../contract/errors.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../contract/json-walk.ts";
import { unstorableAt, unstorableMessage } from "../contract/storable-text.ts";
import type { McpBackend, McpMode } from "./backend.ts";

/** What a tool's call gets besides its arguments and backend. */
export interface ToolContext {
  /** The client's `notifications/cancelled` for this call. */
  signal: AbortSignal;
  /** Set when the client asked for progress notifications. */
  progressToken?: string | number;
  notify(notification: ServerNotification): Promise<void>;
}

/** One row of the TOOLS table as written, typed by its arguments and the backends it runs on. */
interface ToolSpec<S extends TObject, M extends McpMode> {
  name: string;
  title: string;
  /** The `tools/list` description; a mode may change where the tool runs. */
  description(mode: McpMode): string;
  /** What a call gives back, for `mcp --help`. */
  help: string;
  args: S;
  result: TSchema;
  modes: readonly M[];
  call(args: Static<S>, backend: Extract<McpBackend, { mode: M }>, ctx: ToolContext): Promise<CallToolResult>;
}

/** A row of the TOOLS table: what `tools/list`, `tools/call` and `mcp --help` read. */
export interface McpTool {
  name: string;
  title: string;
  description(mode: McpMode): string;
  help: string;
  args: TObject;
  result: TSchema;
  modes: readonly McpMode[];
  /** `{question: string}`: the arguments as a bad call's error and the help name them. */
  argsHint: string;
  /** Checks the arguments (a bad one throws invalid_request, answered as an error result), then calls. */
  call(args: unknown, backend: McpBackend, ctx: ToolContext): Promise<CallToolResult>;
}

const hintOf = (args: TObject) =>
  `{${Object.entries(args.properties)
    .map(([k, s]) => `${k}: ${(s as { type?: string }).type ?? "value"}`)
    .join(", ")}}`;

export function defineTool<S extends TObject, M extends McpMode>(spec: ToolSpec<S, M>): McpTool {
  const argsHint = hintOf(spec.args);
  const offered = (b: McpBackend): b is Extract<McpBackend, { mode: M }> =>
    (spec.modes as readonly McpMode[]).includes(b.mode);
  return {
    ...spec,
    argsHint,
    async call(args, backend, ctx) {
      if (!offered(backend))
        throw new AppError("invalid_request", `${spec.name} is not offered in ${backend.mode} mode`);
      // Before the schema check walks them: as deep as a request body may be (src/http/request-body.ts).
      if (nestedDeeperThan(args))
        throw new AppError("invalid_request", `${spec.name}'s arguments nest more than ${MAX_JSON_DEPTH} levels deep`);
      if (!Value.Check(spec.args, args)) throw new AppError("invalid_request", `${spec.name} takes ${argsHint}`);
      const unstorable = unstorableAt(args);
      if (unstorable) throw new AppError("invalid_request", unstorableMessage(unstorable));
      return spec.call(args, backend, ctx);
    },
  };
}
