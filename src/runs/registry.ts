import type { Envelope } from "../contract/envelope.ts";
import { RunLog } from "./run-log.ts";

/** A run in flight: whose it is, its events so far, how to stop it, and its envelope to come. */
export interface LiveRun {
  readonly accountId: string | null;
  readonly log: RunLog;
  readonly stop: AbortController;
  readonly done: Promise<Envelope>;
  settle(envelope: Envelope): void;
}

/**
 * The runs in flight, by request id: followers attach to them (README "Safe retries") and a
 * shutdown stops accepting, waits for them (bounded) and aborts the stragglers. A run is
 * registered when it is accepted, before anything can look for it, and leaves once its
 * outcome is stored. One per server.
 */
export class RunRegistry {
  private readonly runs = new Map<string, LiveRun>();
  private draining = false;

  get size(): number {
    return this.runs.size;
  }
  get isDraining(): boolean {
    return this.draining;
  }

  get(id: string): LiveRun | undefined {
    return this.runs.get(id);
  }

  open(id: string, accountId: string | null, startedAt: number): LiveRun {
    let settle!: (e: Envelope) => void;
    const done = new Promise<Envelope>((r) => {
      settle = r;
    });
    const run: LiveRun = { accountId, log: new RunLog(startedAt), stop: new AbortController(), done, settle };
    this.runs.set(id, run);
    void done.finally(() => this.runs.delete(id));
    return run;
  }

  /** Resolves once every run now in flight has settled (accepting goes on). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.runs.values()].map((r) => r.done));
  }

  /** Stops accepting; waits up to `graceMs` for runs to finish, then aborts the rest. */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = await Promise.race([
      this.idle().then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const r of this.runs.values()) r.stop.abort("shutdown");
      await this.idle();
    }
  }
}
