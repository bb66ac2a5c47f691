import type { Config } from "../../config/schema.ts";
import type { Metrics } from "../../metrics/registry.ts";
import type { Store, UploadRow } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import type { Spool } from "../uploads/spool.ts";
import { importOne } from "./import-one.ts";
import { WorkerHost, type WorkerHostOptions } from "./worker-host.ts";

/** How often an instance looks for dead instances' uploads and sweeps stray spooled files. */
const SWEEP_MS = 15_000;
/** A job with no batch stored for this long is stopped (a parser stuck on hostile input). */
const STALL_MS = 5 * 60_000;

export interface ImportQueueOptions {
  store: Store;
  config: Config;
  logger: Logger;
  /** This process's instance lease: it imports the files it received. */
  instanceId: string;
  /** Settles once the lease's row exists (a network database): no file is queued or taken before. */
  leaseTaken?: Promise<void>;
  spool: Spool;
  /** Counts the imports' outcomes (/metrics). */
  metrics?: Metrics;
  /** The worker's settings beyond the configuration's; tests shorten or replace them. */
  worker?: Partial<WorkerHostOptions>;
  sweepMs?: number;
}

export interface ImportQueue {
  readonly instanceId: string;
  /**
   * Settles once this instance's lease is recorded: a file queued under it before then would
   * look like a dead instance's to the others.
   */
  readonly ready: Promise<void>;
  readonly spool: Spool;
  /** Something was queued: look for work now rather than at the next sweep. */
  kick(): void;
  /** Stops: the file in flight is left `indexing` for the next start (or another instance) to import again. */
  stop(): Promise<void>;
}

/**
 * Imports uploaded files in the background (README "Collections for a team"), one at a time on
 * a worker thread, never on a request's (docs/decisions/0081-uploads-imported-in-the-background.md).
 * Each instance imports the files it received (they are in its spool); every SWEEP_MS it takes
 * over files left `queued` or `indexing` by an instance whose lease lapsed when their spooled
 * file is here to read (a restart, a shared UPLOAD_DIR), else marks them failed, and removes
 * spooled files no row names.
 */
export function startImportQueue(o: ImportQueueOptions): ImportQueue {
  const { store, logger, spool, instanceId } = o;
  const host = new WorkerHost({
    memoryLimit: o.config.IMPORT_MEMORY_MB * 1048576,
    stallMs: STALL_MS,
    ...o.worker,
  });
  let stopping = false;
  let kicked = false;
  let wake: (() => void) | null = null;
  const kick = () => {
    kicked = true;
    wake?.();
  };

  const sweep = async () => {
    for (const row of await store.uploads.orphans()) {
      if (row.spool && spool.exists(row.spool)) {
        if (await store.uploads.adopt(row.id, instanceId)) kick();
      } else {
        await store.uploads.fail(
          row.id,
          "the server that received this file stopped before importing it: upload it again",
        );
      }
    }
    spool.sweep(await store.uploads.spools());
  };
  // One sweep at a time: a slow database must not stack them up.
  let swept: Promise<void> | null = null;
  const sweeping = () =>
    (swept ??= sweep()
      .catch((e) => logger.error("upload_sweep_failed", { error: String(e) }))
      .finally(() => {
        swept = null;
      }));
  const timer = setInterval(sweeping, o.sweepMs ?? SWEEP_MS);
  timer.unref();

  const next = async (): Promise<UploadRow | null> => {
    try {
      return await store.uploads.claim(instanceId);
    } catch (e) {
      logger.error("upload_claim_failed", { error: String(e) });
      return null;
    }
  };
  const ready = Promise.resolve(o.leaseTaken).catch(() => {});
  const loop = (async () => {
    await ready;
    await sweeping();
    while (!stopping) {
      kicked = false;
      const row = await next();
      // Taken as the server stops: left `indexing`, for the next start (as a file cut short).
      if (stopping) break;
      if (row) {
        await importOne(row, { store, config: o.config, logger, spool, host, metrics: o.metrics });
        continue;
      }
      host.drop();
      if (!kicked && !stopping) await new Promise<void>((r) => (wake = r));
      wake = null;
    }
  })();

  return {
    instanceId,
    ready,
    spool,
    kick,
    async stop() {
      stopping = true;
      clearInterval(timer);
      host.halt();
      wake?.();
      await loop;
      await swept;
      spool.close();
    },
  };
}
