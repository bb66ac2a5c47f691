/**
 * Work that can wait, waiting its turn behind new requests
 * (docs/decisions/0110-the-first-event-before-the-engine.md).
 *
 * A crowd's first events are late when the thread that answers them is busy with the runs it
 * accepted a moment ago: the requests wait in the kernel's queue until the work queued ahead
 * of them is done, and a batch of promise jobs or immediates runs whole before the loop polls
 * its sockets again. A run's stages instead wait here. One waiter is let go per turn of the
 * loop, and only on a turn when no request arrived since the last one (`arrived`), so the
 * loop polls between two pieces of a run's work and a crowd is answered before the runs it
 * started go on. So that a flood cannot stop the runs for good, a waiter that has waited
 * `maxWaitMs` goes on its next turn whatever arrived. On a quiet server a turn costs one
 * pass of the loop (microseconds).
 */
export interface Turns {
  /** Resolves on a later turn of the event loop, after the waiters queued before it. */
  next(): Promise<void>;
  /** A request that starts or follows a run arrived: the next turn goes to the loop's I/O. */
  arrived(): void;
  /** How many wait. */
  readonly waiting: number;
}

export interface TurnsOptions {
  maxWaitMs?: number;
  now?: () => number;
  /** How a turn is awaited: the next pass of the loop, or after `ms`. */
  later?: (f: () => void, ms: number) => void;
}

const loop = (f: () => void, ms: number) => (ms ? setTimeout(f, ms) : setImmediate(f));

export function createTurns(o: TurnsOptions = {}): Turns {
  const maxWaitMs = o.maxWaitMs ?? 250;
  const now = o.now ?? (() => performance.now());
  const later = o.later ?? loop;
  const queue: { go: () => void; since: number }[] = [];
  let head = 0;
  let pumping = false;
  let arrivals = 0;
  const pump = () => {
    const first = queue[head]!;
    const go = arrivals === 0 || now() - first.since >= maxWaitMs;
    arrivals = 0;
    if (go) head++;
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
      pumping = false;
    } else {
      // Skipped for a crowd: a millisecond's pause, so the loop can sleep until its sockets have work.
      later(pump, go ? 0 : 1);
    }
    if (go) first.go();
  };
  return {
    next: () =>
      new Promise<void>((go) => {
        queue.push({ go, since: now() });
        if (!pumping) {
          pumping = true;
          arrivals = 0;
          later(pump, 0);
        }
      }),
    arrived: () => {
      arrivals++;
    },
    get waiting() {
      return queue.length - head;
    },
  };
}

/** The process's turns: there is one event loop per process, and so one queue for its turns. */
export const processTurns = createTurns();
export const nextTurn = (): Promise<void> => processTurns.next();
