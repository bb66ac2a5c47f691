/**
 * Tracks runs in flight so shutdown can stop accepting, wait for them (bounded), and
 * abort the stragglers. One per server.
 */
export class RunRegistry {
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private draining = false;

  get size(): number {
    return this.inFlight.size;
  }
  get isDraining(): boolean {
    return this.draining;
  }

  add(id: string, abort: AbortController, done: Promise<unknown>): void {
    this.inFlight.set(id, { abort, done });
    void done.finally(() => this.inFlight.delete(id));
  }

  /** Resolves once every run now in flight has settled (accepting goes on). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()].map((r) => r.done));
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
      for (const r of this.inFlight.values()) r.abort.abort("shutdown");
      await this.idle();
    }
  }
}
