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
 * MAX_WAIT_MS goes on its next turn whatever arrived. On a quiet server a turn costs one
 * pass of the loop (microseconds).
 */
const MAX_WAIT_MS = 250;

const waiting: { go: () => void; since: number }[] = [];
let head = 0;
let pumping = false;
let arrivals = 0;

function pump(): void {
  const next = waiting[head]!;
  if (arrivals === 0 || performance.now() - next.since >= MAX_WAIT_MS) {
    head++;
    next.go();
  }
  const skipped = arrivals > 0 && waiting[head] === next;
  arrivals = 0;
  if (head === waiting.length) {
    waiting.length = 0;
    head = 0;
    pumping = false;
  } else if (skipped) setTimeout(pump, 1);
  else setImmediate(pump);
}

/** Resolves on a later turn of the event loop, after the waiters queued before it. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((go) => {
    waiting.push({ go, since: performance.now() });
    if (!pumping) {
      pumping = true;
      arrivals = 0;
      setImmediate(pump);
    }
  });
}

/** A request that starts or follows a run arrived: the next turn goes to the loop's I/O. */
export function arrived(): void {
  arrivals++;
}
