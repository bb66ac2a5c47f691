import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/contract/errors.ts";
import { ENGINE_STAGES } from "../../../src/research/engine/engine.ts";
import { type Stage, stages } from "../../../src/research/engine/stages.ts";

/**
 * Turns by construction (docs/decisions/0133-turns-by-construction.md): the runner the engine
 * goes through waits a turn of the process's loop between two stages, so a stage added to the
 * chain yields without asking. What a turn lets run first is an immediate queued before it:
 * without the turn the next stage's body would run in the same batch of promise jobs, before
 * any immediate. Nothing here waits on the wall clock.
 */
type Scope = { signal: AbortSignal };

const scope = (): Scope => ({ signal: new AbortController().signal });

describe("the engine's stages", () => {
  test("a stage added after another runs only after the loop's turn: an immediate queued before it goes first", async () => {
    const seen: string[] = [];
    const first: Stage<number, number, Scope> = async (n) => {
      seen.push("first");
      setImmediate(() => seen.push("immediate"));
      return n + 1;
    };
    // The added stage asks for no turn of its own.
    const added: Stage<number, string, Scope> = async (n) => {
      seen.push("added");
      return `got ${n}`;
    };
    expect(await stages(first).and(added).run(1, scope())).toBe("got 2");
    expect(seen).toEqual(["first", "immediate", "added"]);
  });

  test("every boundary of a longer chain is a turn", async () => {
    const seen: string[] = [];
    const step =
      (name: string): Stage<void, void, Scope> =>
      async () => {
        seen.push(name);
        setImmediate(() => seen.push(`after ${name}`));
      };
    await stages(step("a")).and(step("b")).and(step("c")).run(undefined, scope());
    expect(seen.slice(0, 5)).toEqual(["a", "after a", "b", "after b", "c"]);
  });

  test("a run stopped while it waited its turn goes no further", async () => {
    const stop = new AbortController();
    let reached = false;
    const chain = stages<void, void, Scope>(async () => stop.abort()).and(async () => {
      reached = true;
    });
    const failed = await chain.run(undefined, { signal: stop.signal }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(reached).toBe(false);
  });

  test("the engine's five stages go through the runner, so a stage added to them yields too", () => {
    expect(ENGINE_STAGES.length).toBe(5);
    const longer = ENGINE_STAGES.and(async (result) => result.answer);
    expect(longer.length).toBe(6);
  });
});
