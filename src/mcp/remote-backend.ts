import type { RemoteBackend } from "./backend.ts";
import { followRemoteRun, type RemoteServer } from "./remote-stream.ts";

/**
 * A research-query server (`mcp --server URL`, the key in RQ_API_KEY): each `research` is
 * one call of POST /api/query/stream with the key — the only API a key may use — so it is
 * counted against the account's allowance and shows in its Console like any call. A
 * cancelled call closes the stream; the run finishes on the server as any run does.
 * `extract` is not offered: the server has no such API for a key.
 */
export function remoteBackend(server: RemoteServer): RemoteBackend {
  return {
    mode: "remote",
    research: (question, call) => followRemoteRun(server, question, call),
    close: async () => {},
  };
}
