import { describe, expect, test } from "bun:test";
import type { WorkerPoolConfig } from "../../../src/util/worker-pool/pool-config.ts";
import { createWorkerPool } from "../../../src/util/worker-pool/worker-pool.ts";
import type { PoolTestJob, PoolTestReply } from "../../fixtures/pool-worker.ts";

/**
 * The one pool lifecycle (docs/decisions/0132-one-worker-pool.md) on a tiny worker whose jobs say
 * what the thread does. Deadlines, memory readings and memory checks are the test's: a job
 * overruns, or memory grows, when the test says so; nothing here waits on the wall clock.
 */
const WORKER = new URL("../../fixtures/pool-worker.ts", import.meta.url);
interface Answer {
  value: string;
  thread: string;
  opened: boolean;
}

class Failed extends Error {}

/** The deadline's timers, fired by hand; `armed` counts every start. */
function manualTimer() {
  const live = new Set<() => void>();
  let armed = 0;
  return {
    timer: (onOverrun: () => void) => {
      armed++;
      live.add(onOverrun);
      return () => live.delete(onOverrun);
    },
    fire: () => {
      for (const f of [...live]) f();
    },
    live: () => live.size,
    armed: () => armed,
  };
}

/** The process's memory and the watch's checks, moved by hand. */
function manualMemory() {
  let rss = 100 * 1048576;
  const ticks = new Set<() => void>();
  return {
    rss: () => rss,
    grow: (mb: number) => {
      rss += mb * 1048576;
    },
    ticker: (tick: () => void) => {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    check: () => {
      for (const t of [...ticks]) t();
    },
    watches: () => ticks.size,
  };
}

function pool(o: Partial<WorkerPoolConfig<PoolTestJob, Answer>> = {}) {
  return createWorkerPool<PoolTestJob, Answer>({
    name: "test",
    url: WORKER,
    size: 1,
    message: (job, id) => ({ ...job, id }),
    hear: (data) => {
      const m = data as PoolTestReply;
      if (m.type === "ready") return m;
      if (m.type === "step") return { type: "progress", id: m.id, answer: async () => ({ answer: "answered" }) };
      if (m.ok) return { type: "value", id: m.id, value: { value: m.value, thread: m.thread, opened: m.opened } };
      return { type: "error", id: m.id, error: () => new Failed(m.message) };
    },
    errors: {
      crashed: (_, message) => new Failed(`crashed: ${message}`),
      abandoned: () => new Failed("abandoned"),
      closed: () => new Failed("closed"),
    },
    ...o,
  });
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => "answered",
    (e: Error) => e.message,
  );

describe("the worker pool", () => {
  test("a thread starts on first use, in the least busy slot; a job's own failure leaves its thread", async () => {
    const p = pool({ size: 2 });
    try {
      expect(p.threads()).toBe(0);
      const [a, b] = await Promise.all([p.run({ do: "echo", value: "a" }), p.run({ do: "echo", value: "b" })]);
      expect([a.value, b.value, p.threads()]).toEqual(["a", "b", 2]);
      expect(a.thread).not.toBe(b.thread);
      expect(await failure(p.run({ do: "fail", message: "bad input" }))).toBe("bad input");
      expect(p.threads()).toBe(2);
    } finally {
      p.close();
    }
  });

  test("a job past its deadline has its thread terminated and fails with the deadline's error; the next job gets a new thread", async () => {
    const clock = manualTimer();
    const p = pool({ deadline: { ms: 1000, timer: clock.timer, error: () => new Failed("overran") } });
    try {
      const warm = await p.run({ do: "echo", value: "warm" });
      const hung = failure(p.run({ do: "hang" }));
      expect(clock.live()).toBe(1);
      clock.fire();
      expect(await hung).toBe("overran");
      const after = await p.run({ do: "echo", value: "after" });
      expect(after.thread).not.toBe(warm.thread);
      expect(clock.armed()).toBe(3);
    } finally {
      p.close();
    }
  });

  test("progress starts the deadline again, and the pool's answer to it goes back to the thread", async () => {
    const clock = manualTimer();
    const p = pool({ deadline: { ms: 1000, timer: clock.timer, error: () => new Failed("overran") } });
    try {
      expect((await p.run({ do: "step" })).value).toBe("answered");
      // Armed when posted and again at the step; the first was cancelled, and both once answered.
      expect([clock.armed(), clock.live()]).toEqual([2, 0]);
    } finally {
      p.close();
    }
  });

  test("a thread that crashes fails the job it held; its queue goes to a new thread", async () => {
    const p = pool();
    try {
      const warm = await p.run({ do: "echo", value: "warm" });
      const crashed = failure(p.run({ do: "crash" }));
      const queued = p.run({ do: "echo", value: "queued" });
      const why = await crashed;
      expect(why).toStartWith("crashed: ");
      expect(why).toContain("the thread died mid-job");
      const after = await queued;
      expect(after.value).toBe("queued");
      expect(after.thread).not.toBe(warm.thread);
    } finally {
      p.close();
    }
  });

  test("where no thread can start, jobs run in place (the caller's way), or fail without one", async () => {
    const inPlace = async (): Promise<Answer> => ({ value: "in place", thread: "this one", opened: false });
    // A script that is not there, one that dies as it loads (before it says anything), and one
    // the Worker constructor refuses outright.
    const refused = Symbol("not a script") as unknown as string;
    const missing = new URL("../../fixtures/no-such-worker.ts", import.meta.url);
    const dying = new URL("../../fixtures/dying-worker.ts", import.meta.url);
    for (const url of [missing, dying, refused]) {
      const p = pool({ url });
      try {
        expect((await p.run({ do: "echo", value: "x" }, { inPlace })).value).toBe("in place");
        // Known now: the next job runs in place at once, no thread tried.
        const next = p.run({ do: "echo", value: "x" }, { inPlace });
        expect(p.threads()).toBe(0);
        expect((await next).value).toBe("in place");
        expect(await failure(p.run({ do: "echo", value: "x" }))).toStartWith("crashed: ");
      } finally {
        p.close();
      }
    }
  });

  test("memory past the bound stops the thread of the job that has grown the most; its other job gets one more try", async () => {
    const mem = manualMemory();
    const p = pool({
      perThread: 2,
      memory: { limit: 1048576, rss: mem.rss, ticker: mem.ticker, error: () => new Failed("too much memory") },
    });
    try {
      const first = failure(p.run({ do: "hang" }));
      const second = failure(p.run({ do: "hang" }));
      // One watch for the pool, however many jobs it holds.
      expect(mem.watches()).toBe(1);
      mem.check();
      mem.grow(2);
      mem.check();
      expect(await first).toBe("too much memory");
      // The other job is on a new thread, its growth counted from the stop.
      mem.check();
      expect(p.threads()).toBe(1);
      mem.grow(2);
      mem.check();
      expect(await second).toBe("too much memory");
      // Nothing held: the watch stops until the next job.
      expect(mem.watches()).toBe(0);
    } finally {
      p.close();
    }
  });

  test("a job whose caller stops waiting leaves the queue, or with stopAbandoned stops its thread", async () => {
    const kept = pool();
    const stopping = pool({ stopAbandoned: true });
    try {
      for (const p of [kept, stopping]) {
        const warm = await p.run({ do: "echo", value: "warm" });
        const running = new AbortController();
        const queuedToo = new AbortController();
        const hung = failure(p.run({ do: "hang" }, { signal: running.signal }));
        const leaving = failure(p.run({ do: "echo", value: "never" }, { signal: queuedToo.signal }));
        queuedToo.abort();
        expect(await leaving).toBe("abandoned");
        running.abort();
        expect(await hung).toBe("abandoned");
        const next = p.run({ do: "echo", value: "next" });
        if (p === stopping) {
          // Stopped: a new thread takes the next job.
          expect((await next).thread).not.toBe(warm.thread);
        } else {
          // Kept: the thread still runs the hung job, so the next one waits behind it (closed below).
          next.catch(() => {});
          const first = await Promise.race([next.then(() => "answered"), Bun.sleep(0).then(() => "waiting")]);
          expect(first).toBe("waiting");
        }
      }
    } finally {
      kept.close();
      stopping.close();
    }
  });

  test("a pool with `open` posts it first; jobs wait for the thread's ready", async () => {
    const p = pool({ open: { open: true } });
    try {
      expect(await p.run({ do: "echo", value: "x" })).toMatchObject({ value: "x", opened: true });
    } finally {
      p.close();
    }
  });

  test("close fails what is held and queued and leaves no thread; letGo ends idle threads; the next job starts one", async () => {
    const p = pool();
    const held = failure(p.run({ do: "hang" }));
    const queued = failure(p.run({ do: "echo", value: "queued" }));
    p.close();
    expect([await held, await queued, p.threads()]).toEqual(["closed", "closed", 0]);
    expect((await p.run({ do: "echo", value: "again" })).value).toBe("again");
    expect(p.threads()).toBe(1);
    p.letGo();
    expect(p.threads()).toBe(0);
  });
});
