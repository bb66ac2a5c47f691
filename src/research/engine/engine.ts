import { providersForRun } from "../search/registry.ts";
import { searchRefusal } from "../search/searchable.ts";
import type { Engine, EngineResult, RunContext } from "../types.ts";
import { planStage } from "./plan-stage.ts";
import { readStage } from "./read-stage.ts";
import type { EngineDeps, RunScope } from "./run-scope.ts";
import { searchStage } from "./search-stage.ts";
import { stages } from "./stages.ts";
import { resolveTimings } from "./timings.ts";
import { traced } from "./traced.ts";
import { verifyStage } from "./verify-stage.ts";
import { writeStage } from "./write-stage.ts";

/**
 * The research engine's stages in order: plan → search → read → write (the sources chosen and
 * ranked, the answer written) → verify (citations settled, claims checked). Each goes on on a
 * later turn than the one before it ended on, behind new requests (src/util/turns.ts), which
 * `stages` does for every stage: none asks for it.
 */
export const ENGINE_STAGES = stages(traced("research.plan", planStage))
  .and(searchStage)
  .and(readStage)
  .and(traced("research.write", writeStage))
  .and(traced("research.verify", verifyStage));

/** The research engine over `deps`: one run of ENGINE_STAGES per question. */
export function createEngine(deps: EngineDeps): Engine {
  const timings = resolveTimings(deps.timings);
  return {
    async run(question: string, ctx: RunContext): Promise<EngineResult> {
      const t0 = performance.now();
      // Collections may be filled while the server runs: whether `local` takes part is asked per run.
      const providers = await providersForRun(deps.search, ctx.reader);
      const scope: RunScope = {
        question,
        ctx,
        signal: ctx.signal,
        deps,
        timings,
        t0,
        providers,
        tokens: { in: 0, out: 0 },
        spans: {},
      };
      return ENGINE_STAGES.run(undefined, scope);
    },
    refusal: (reader) => searchRefusal(deps.search, reader),
    probe: async () => deps.search.reach?.probe(),
  };
}
