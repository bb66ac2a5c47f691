import { AppError } from "../../contract/errors.ts";
import { nextTurn } from "../../util/turns.ts";

/** One stage of a run: what the stage before it gave, in; what the next one needs, out. */
export type Stage<In, Out, Scope> = (input: In, scope: Scope) => Promise<Out>;

/** What every stage can see of its run: at least the signal that stops it. */
interface Stopped {
  readonly signal: AbortSignal;
}

/**
 * Stages in order, a turn between each two: the only way the engine goes from one stage to
 * the next, so a stage added to the chain waits its turn behind new requests without asking
 * for it (docs/decisions/0133-turns-by-construction.md; the turns themselves are
 * docs/decisions/0110-the-first-event-before-the-engine.md).
 */
export interface Stages<In, Out, Scope extends Stopped> {
  /** These stages, then `stage` on a later turn with what the last of them gave. */
  and<Next>(stage: Stage<Out, Next, Scope>): Stages<In, Next, Scope>;
  /** How many stages, so many turns less one. */
  readonly length: number;
  run(input: In, scope: Scope): Promise<Out>;
}

type AnyStage<Scope> = Stage<unknown, unknown, Scope>;

/** The chain that starts with `first`; `turn` is how a stage waits (the process's turns). */
export function stages<In, Out, Scope extends Stopped>(
  first: Stage<In, Out, Scope>,
  turn: () => Promise<void> = nextTurn,
): Stages<In, Out, Scope> {
  return chain<In, Out, Scope>([first as AnyStage<Scope>], turn);
}

function chain<In, Out, Scope extends Stopped>(
  list: readonly AnyStage<Scope>[],
  turn: () => Promise<void>,
): Stages<In, Out, Scope> {
  return {
    and: <Next>(stage: Stage<Out, Next, Scope>) => chain<In, Next, Scope>([...list, stage as AnyStage<Scope>], turn),
    length: list.length,
    async run(input, scope) {
      let value: unknown = input;
      for (const [i, stage] of list.entries()) {
        if (i > 0) {
          await turn();
          // A run stopped while it waited goes no further (its caller has already answered).
          if (scope.signal.aborted) throw new AppError("internal_error", "aborted");
        }
        value = await stage(value, scope);
      }
      return value as Out;
    },
  };
}
