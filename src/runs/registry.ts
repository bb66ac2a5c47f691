import type { Envelope } from "../contract/envelope.ts";
import { RunLog } from "./run-log.ts";

/** A run in flight: whose it is, its events so far, how to stop it, and its envelope to come. */
export interface LiveRun {
  readonly accountId: string | null;
  readonly log: RunLog;
  readonly stop: AbortController;
  readonly done: Promise<Envelope>;
  settle(envelope: Envelope): void;
  /** Its outcome is in the store (or will never be): it leaves the registry. */
  recorded(): void;
}

/**
 * The runs in flight, by request id: followers attach to them (README "Safe retries") and a
 * shutdown stops accepting, waits for them (bounded) and aborts the stragglers. A run is
 * registered when it is accepted, before anything can look for it, and leaves once its
 * outcome is stored — which, while the database is away, is after its callers had their
 * answer: until then it is answered from here (docs/decisions/0099-postgres-outage.md).
 * One per server.
 */
export class RunRegistry {
  private readonly runs = new Map<string, { run: LiveRun; recorded: Promise<void> }>();
  private draining = false;
  private readonly abandon = new AbortController();

  get size(): number {
    return this.runs.size;
  }
  get isDraining(): boolean {
    return this.draining;
  }

  get(id: string): LiveRun | undefined {
    return this.runs.get(id)?.run;
  }

  /** Aborts once a shutdown's runs have ended: outcomes still waiting for the database go to the local spool. */
  get abandoned(): AbortSignal {
    return this.abandon.signal;
  }

  /** Runs that have ended but whose outcome waits for the database. */
  get unrecorded(): number {
    let n = 0;
    for (const { run } of this.runs.values()) if (run.log.ended) n++;
    return n;
  }

  open(id: string, accountId: string | null, startedAt: number): LiveRun {
    let settle!: (e: Envelope) => void;
    const done = new Promise<Envelope>((r) => {
      settle = r;
    });
    const left = Promise.withResolvers<void>();
    const run: LiveRun = {
      accountId,
      log: new RunLog(startedAt),
      stop: new AbortController(),
      done,
      settle,
      recorded: left.resolve,
    };
    this.runs.set(id, { run, recorded: left.promise });
    void left.promise.then(() => this.runs.delete(id));
    return run;
  }

  /** Resolves once every run now in flight has ended and its outcome is stored (accepting goes on). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.runs.values()].map((r) => r.recorded));
  }

  /**
   * Stops accepting; waits up to `graceMs` for runs to end, then aborts the rest. Outcomes the
   * database has not taken by then are not waited for: each gets one last try, then goes to the
   * local spool the next start writes (src/runs/held-outcomes.ts). Waiting on through an outage
   * only spent the grace, and the outcomes were lost at its end all the same.
   */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = Promise.allSettled([...this.runs.values()].map((r) => r.run.done));
    const timedOut = await Promise.race([
      ended.then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) for (const { run } of this.runs.values()) run.stop.abort("shutdown");
    this.abandon.abort();
    await this.idle();
  }
}
