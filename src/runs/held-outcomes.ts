import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import type { RunOutcome, Store, TimelineEvent } from "../store/types.ts";
import { isDatabaseUnreachable } from "../store/unreachable.ts";
import type { Logger } from "../util/logger.ts";

/** One run's end as `store.runs.finish` takes it. */
interface HeldOutcome {
  runId: string;
  outcome: RunOutcome;
  timeline: TimelineEvent[];
}

/**
 * Outcomes the database did not take before the process stopped, kept on local disk until the
 * next start writes them (docs/decisions/0122-held-outcomes-outlive-the-process.md). One file
 * per run, named by its id (ours, a UUID: nothing a client sent reaches a path); written to a
 * temporary name, synced, then renamed, so a reader never sees half of one.
 */
export interface HeldOutcomes {
  readonly dir: string;
  /** Synchronous: it runs while the process stops, and must be on disk before it exits. */
  keep(runId: string, outcome: RunOutcome, timeline: TimelineEvent[]): void;
  /** Writes every kept outcome to the store and removes its file; stops at an unreachable database. */
  replay(store: Store, logger: Logger): Promise<void>;
  /** Whether any outcome waits here (a start without one adds no wait before the first run). */
  readonly any: boolean;
}

/** `held-outcomes/` beside DATABASE_PATH (./data/held-outcomes with PostgreSQL); none for `:memory:`. */
export function heldOutcomesDir(cfg: Config): string | undefined {
  if (cfg.DATABASE_PATH === ":memory:" && !cfg.DATABASE_URL) return undefined;
  return join(dirname(resolve(cfg.DATABASE_PATH)), "held-outcomes");
}

const ENDING = ".json";

export function heldOutcomes(dir: string): HeldOutcomes {
  const names = (): string[] => {
    try {
      return readdirSync(dir).filter((n) => n.endsWith(ENDING));
    } catch {
      return [];
    }
  };
  return {
    dir,
    keep(runId, outcome, timeline) {
      // Answers are the account's data: readable by this service's user only.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, `${runId}${ENDING}`);
      const tmp = `${path}.tmp`;
      const fd = openSync(tmp, "w", 0o600);
      try {
        writeSync(fd, JSON.stringify({ runId, outcome, timeline } satisfies HeldOutcome));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    },
    async replay(store, logger) {
      for (const name of names()) {
        const path = join(dir, name);
        let held: HeldOutcome;
        try {
          held = JSON.parse(readFileSync(path, "utf8")) as HeldOutcome;
        } catch (e) {
          logger.error("held_outcome_unreadable", { file: path, error: String(e) });
          continue;
        }
        try {
          // Repeatable: two instances on one folder starting together write the same outcome twice.
          await store.runs.finish(held.runId, held.outcome, held.timeline);
        } catch (e) {
          if (isDatabaseUnreachable(e)) break;
          logger.error("held_outcome_failed", { request_id: held.runId, error: String(e) });
          continue;
        }
        rmSync(path, { force: true });
        logger.info("held_outcome_stored", { request_id: held.runId });
      }
    },
    get any() {
      return names().length > 0;
    },
  };
}
