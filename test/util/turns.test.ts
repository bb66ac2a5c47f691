import { describe, expect, test } from "bun:test";
import { createTurns, nextTurn } from "../../src/util/turns.ts";

/**
 * The turns of docs/decisions/0110-the-first-event-before-the-engine.md, driven by hand: `later`
 * only queues its callback and `turn()` runs the next one, the clock is a number the test moves.
 * Nothing here waits on the wall clock.
 */
function manual(maxWaitMs = 250) {
  const pending: { f: () => void; ms: number }[] = [];
  let t = 0;
  const turns = createTurns({ maxWaitMs, now: () => t, later: (f, ms) => pending.push({ f, ms }) });
  const released: number[] = [];
  let n = 0;
  /** A waiter numbered in the order asked; `released` lists them as their promises resolve. */
  const wait = () => {
    const i = n++;
    void turns.next().then(() => released.push(i));
    return i;
  };
  /** One turn of the loop: the callback `later` was given, then the promise jobs it let go. */
  const turn = async () => {
    const next = pending.shift();
    if (!next) throw new Error("no turn was asked for");
    next.f();
    await new Promise((r) => setImmediate(r));
  };
  return {
    turns,
    released,
    wait,
    turn,
    pending,
    at: (ms: number) => {
      t = ms;
    },
  };
}

describe("turns", () => {
  test("waiters go in the order they asked, one per turn, and each asks for the next turn only while some wait", async () => {
    const m = manual();
    m.wait();
    m.wait();
    m.wait();
    expect(m.pending).toHaveLength(1);
    expect(m.turns.waiting).toBe(3);
    await m.turn();
    expect(m.released).toEqual([0]);
    expect(m.turns.waiting).toBe(2);
    expect(m.pending).toHaveLength(1);
    await m.turn();
    expect(m.released).toEqual([0, 1]);
    await m.turn();
    expect(m.released).toEqual([0, 1, 2]);
    expect(m.turns.waiting).toBe(0);
    // Nothing waits: no turn is asked for, the loop is left alone.
    expect(m.pending).toHaveLength(0);
  });

  test("a turn after an arrival lets nobody go; the next quiet one lets one go", async () => {
    const m = manual();
    m.wait();
    m.wait();
    m.turns.arrived();
    m.turns.arrived();
    await m.turn();
    expect(m.released).toEqual([]);
    expect(m.turns.waiting).toBe(2);
    // Two arrivals before one turn hold back that turn only.
    await m.turn();
    expect(m.released).toEqual([0]);
    m.turns.arrived();
    await m.turn();
    expect(m.released).toEqual([0]);
    expect(m.turns.waiting).toBe(1);
    await m.turn();
    expect(m.released).toEqual([0, 1]);
    expect(m.pending).toHaveLength(0);
  });

  test("a waiter that has waited maxWaitMs goes whatever arrived; the one behind it still waits its own", async () => {
    const m = manual(250);
    m.wait();
    m.at(100);
    m.wait();
    const flood = async (times: number) => {
      for (let i = 0; i < times; i++) {
        m.turns.arrived();
        await m.turn();
      }
    };
    m.at(249);
    await flood(5);
    expect(m.released).toEqual([]);
    m.at(250);
    await flood(1);
    expect(m.released).toEqual([0]);
    // The second asked at 100: at 349 it has waited 249.
    m.at(349);
    await flood(3);
    expect(m.released).toEqual([0]);
    m.at(350);
    await flood(1);
    expect(m.released).toEqual([0, 1]);
    expect(m.turns.waiting).toBe(0);
    expect(m.pending).toHaveLength(0);
  });

  test("after the queue empties it starts over: a new waiter asks for a turn, an arrival while idle holds nothing back", async () => {
    const m = manual();
    m.wait();
    await m.turn();
    expect(m.released).toEqual([0]);
    expect(m.pending).toHaveLength(0);
    // Arrived while nobody waited: its handler ran before the waiter below asked.
    m.turns.arrived();
    m.at(10);
    m.wait();
    m.wait();
    expect(m.pending).toHaveLength(1);
    expect(m.turns.waiting).toBe(2);
    await m.turn();
    expect(m.released).toEqual([0, 1]);
    m.turns.arrived();
    await m.turn();
    expect(m.released).toEqual([0, 1]);
    await m.turn();
    expect(m.released).toEqual([0, 1, 2]);
    expect(m.turns.waiting).toBe(0);
    expect(m.pending).toHaveLength(0);
  });

  test("on the real loop (no `later` given) waiters resolve in the order asked, arrivals or not", async () => {
    const turns = createTurns();
    const order: number[] = [];
    const all = [0, 1, 2, 3].map((i) => turns.next().then(() => order.push(i)));
    turns.arrived();
    expect(turns.waiting).toBe(4);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(turns.waiting).toBe(0);
    // The process's own queue.
    await nextTurn();
  });
});
