import type { Awaitable, Store } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import { recoverInterruptedRuns } from "../service.ts";

/** How often an instance renews its lease and looks for dead instances' runs, and how long a lease lasts. */
export interface LeaseTimings {
  heartbeatMs: number;
  leaseMs: number;
}

/**
 * README "Instances on one database": a dead instance's runs are `interrupted` at most
 * leaseMs + heartbeatMs (60 s) after its last renewal; a live one misses two renewals
 * (30 s of a blocked event loop or a locked database) before another may judge it dead.
 */
export const LEASE_DEFAULTS: LeaseTimings = { heartbeatMs: 15_000, leaseMs: 45_000 };

export interface InstanceLease {
  /** Recorded on every run this instance accepts. */
  readonly id: string;
  /**
   * Settles once the first round is over, when it was asynchronous (a network database): no run
   * may be recorded under the lease before its row exists, or another instance would judge
   * the run dead. Undefined on SQLite, where the first round is over before this returns.
   */
  readonly taken: Promise<void> | undefined;
  /** Stops renewing and ends the lease; call once this instance's runs are settled. */
  release(): Promise<void>;
}

const then = <T>(v: Awaitable<T>, f: (v: T) => Awaitable<void>): Awaitable<void> =>
  v instanceof Promise ? v.then(f) : f(v);

/**
 * Takes this process's lease, then — at once and every heartbeat — renews it and marks
 * `interrupted` the runs of instances whose lease has expired (or of none), never those of
 * a live instance. On SQLite the first round is synchronous (and throws), so it is done
 * before the server accepts its first run.
 */
export function startInstanceLease(
  store: Store,
  logger: Logger,
  timings: LeaseTimings = LEASE_DEFAULTS,
): InstanceLease {
  const { heartbeatMs, leaseMs } = timings;
  if (!(heartbeatMs > 0 && leaseMs >= 2 * heartbeatMs))
    throw new Error(`a lease (${leaseMs} ms) must last at least two heartbeats (${heartbeatMs} ms)`);
  const id = crypto.randomUUID();
  let taken = false;

  const round = (): Awaitable<void> =>
    then(store.instances.renew(id, leaseMs), (held) => {
      // A lapsed lease: this process stalled past it, so others may have marked its runs.
      if (!held && taken) logger.warn("instance_lease_lapsed", { instance: id, lease_ms: leaseMs });
      taken = true;
      return then(recoverInterruptedRuns(store), (n) => {
        if (n) logger.warn("runs_interrupted", { count: n });
        return then(store.instances.forgetExpired(), () => {});
      });
    });
  // A busy or failing database must not end the process: the next heartbeat retries.
  const failed = (err: unknown) => logger.error("instance_lease_failed", { instance: id, error: String(err) });

  let busy: Promise<void> | undefined;
  const track = (r: Awaitable<void>) => {
    if (r instanceof Promise)
      busy = r.catch(failed).finally(() => {
        busy = undefined;
      });
  };
  track(round());
  const firstRound = busy;
  logger.debug("instance_lease", { instance: id, heartbeat_ms: heartbeatMs, lease_ms: leaseMs });
  const timer = setInterval(() => {
    if (busy) return;
    try {
      track(round());
    } catch (err) {
      failed(err);
    }
  }, heartbeatMs);
  timer.unref();

  let released: Promise<void> | undefined;
  return {
    id,
    taken: firstRound,
    release() {
      released ??= (async () => {
        clearInterval(timer);
        await busy;
        // A database away at the stop must not fail it: the lease then lapses on its own, and
        // others judge its runs once it has (its held outcomes replace their marks later).
        await Promise.resolve()
          .then(() => store.instances.release(id))
          .catch((err: unknown) => logger.warn("instance_lease_unreleased", { instance: id, error: String(err) }));
      })();
      return released;
    },
  };
}
