import type { Writer } from "../../contract/envelope.ts";
import type { ErrorItem } from "../../contract/errors.ts";
import type { RunRow, Store, TimelineEvent } from "../../store/types.ts";
import { isDatabaseUnreachable } from "../../store/unreachable.ts";
import type { RunRegistry } from "../registry.ts";
import { readRun } from "../withhold/withhold.ts";
import { awaitedFollow, type Follow, liveFollow, storedFollow } from "./follow.ts";
import { mirroredFollow } from "./mirror.ts";
import { storedStream } from "./replay.ts";

export const INTERRUPTED: ErrorItem = {
  code: "interrupted",
  message: "the run was cut short by a server shutdown or crash",
};

export interface AttachDeps {
  store: Store;
  registry: RunRegistry;
  writer: Writer;
  runTimeoutMs: number;
}

/** How often a run accepted by another process is looked for again. */
const POLL_MS = 250;

/**
 * Finds a run of an account to follow (README "Safe retries"): in flight here (its log,
 * then live), ended (its stored stream), or accepted by another process on the same
 * database and not ended — then followed live from the store's run stream where there is
 * one (PostgreSQL), else once it ends or shows up here; given up as interrupted a minute
 * past its deadline. Null when the account has no such run, so
 * another account's run id reveals nothing.
 */
export function attacher(deps: AttachDeps) {
  const { store, registry, writer } = deps;
  const stored = (run: RunRow, events: TimelineEvent[]) => storedFollow(run.id, storedStream(run, events, writer));

  const awaitRun = async (accountId: string, first: RunRow): Promise<Follow> => {
    const giveUpAt = Date.parse(first.createdAt) + deps.runTimeoutMs + 60_000;
    let last = { run: first, events: [] as TimelineEvent[] };
    for (;;) {
      await Bun.sleep(POLL_MS);
      const live = registry.get(first.id);
      if (live) return liveFollow(first.id, live);
      // The database away: look again at the next poll (the run's instance writes it once it is back).
      const now = await readRun(store, accountId, first.id).catch((e: unknown) => {
        if (isDatabaseUnreachable(e)) return null;
        throw e;
      });
      last = now ?? last;
      if (last.run.status !== "running") return stored(last.run, last.events);
      if (Date.now() > giveUpAt) return stored({ ...last.run, status: "error", errors: [INTERRUPTED] }, last.events);
    }
  };

  return async (accountId: string, runId: string): Promise<Follow | null> => {
    const live = registry.get(runId);
    if (live) return live.accountId === accountId ? liveFollow(runId, live) : null;
    // Read as its reader may see it now: what it may no longer read is withheld (withhold.ts).
    const found = await readRun(store, accountId, runId);
    if (!found) return null;
    if (found.run.status !== "running") return stored(found.run, found.events);
    const ended = awaitRun(accountId, found.run);
    // Where the store carries running runs' events (PostgreSQL), follow it live; else once it ends.
    return store.runStream ? mirroredFollow(runId, store.runStream, ended) : awaitedFollow(runId, ended);
  };
}
