import type { Store } from "../store/types.ts";

/** How long /healthz waits for the database before it calls it unreachable (a blackholed host takes the client's 10 s). */
const PROBE_MS = 2_000;

export interface Health {
  /** `draining`: a stop is under way; the runs in flight finish, new calls are refused (503). */
  status: "ok" | "draining";
  database: "ok" | "unreachable";
  /** Runs that ended while the database was away; their answers are written once it is back. */
  unrecorded_runs: number;
}

/**
 * /healthz's answer (docs/decisions/0099-postgres-outage.md): the process answers (`status`,
 * so a liveness probe does not restart it and lose the answers it holds), whether the
 * database answers a trivial statement now, and how many ended runs wait for it. One probe at
 * a time: health checks that arrive together share it. During a drain the status says so
 * (docs/decisions/0150-healthz-in-a-drain-and-a-prompt-exit.md).
 */
export function healthProbe(store: Store, unrecorded: () => number, draining: () => boolean): () => Promise<Health> {
  let probing: Promise<boolean> | undefined;
  const probe = async (): Promise<boolean> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), PROBE_MS);
    });
    try {
      return await Promise.race([Promise.resolve(store.ping()).then(() => true), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return async () => {
    probing ??= probe().finally(() => {
      probing = undefined;
    });
    const up = await probing;
    return {
      status: draining() ? "draining" : "ok",
      database: up ? "ok" : "unreachable",
      unrecorded_runs: unrecorded(),
    };
  };
}
