import { AppError, type ErrorCode } from "../../src/contract/errors.ts";
import type { Engine, EngineResult, RunContext, Source } from "../../src/research/types.ts";

/** An engine fixture for the service layer: emits the stages, then answers or fails. */
export interface Script {
  delayMs?: number;
  failWith?: ErrorCode;
  /** Never resolves until aborted (for deadline and disconnect tests). */
  hang?: boolean;
  throwRaw?: boolean;
  /** Waited for before writing: a test holds the run here while it cuts or resumes a stream. */
  gate?: Promise<unknown>;
  /** The answer's deltas (default "Answer ", "text [S1]."), `deltaMs` apart. */
  deltas?: string[];
  deltaMs?: number;
}

export const sampleSource: Source = {
  id: "S1",
  title: "Example",
  url: "https://example.org/a",
  type: "web",
  provider: "searxng",
  snippet: "An example.",
};

export interface ScriptedEngine extends Engine {
  calls: number;
  aborted: number;
  /** The question of each run, in order. */
  queries: string[];
  /** Resolves when the first run starts, and when a run's signal first aborts: tests await these instead of sleeping. */
  started: Promise<void>;
  firstAbort: Promise<void>;
}

export function scriptedEngine(script: Script = {}): ScriptedEngine {
  const started = Promise.withResolvers<void>();
  const firstAbort = Promise.withResolvers<void>();
  const eng: ScriptedEngine = {
    calls: 0,
    aborted: 0,
    queries: [],
    started: started.promise,
    firstAbort: firstAbort.promise,
    async run(query: string, ctx: RunContext): Promise<EngineResult> {
      eng.calls++;
      eng.queries.push(query);
      started.resolve();
      ctx.signal.addEventListener(
        "abort",
        () => {
          eng.aborted++;
          firstAbort.resolve();
        },
        { once: true },
      );
      ctx.emit({ type: "progress", stage: "planning", message: "planning", queries: [query] });
      if (script.hang)
        await new Promise((_, rej) =>
          ctx.signal.addEventListener("abort", () => rej(new AppError("internal_error", "aborted"))),
        );
      if (script.delayMs) await Bun.sleep(script.delayMs);
      ctx.emit({ type: "progress", stage: "searching", message: "searching" });
      if (script.throwRaw) throw new TypeError("boom");
      if (script.failWith) throw new AppError(script.failWith, `scripted ${script.failWith}`);
      ctx.emit({ type: "progress", stage: "reading", message: "reading" });
      ctx.emit({ type: "source", source: sampleSource });
      ctx.emit({ type: "progress", stage: "writing", message: "writing" });
      if (script.gate) await script.gate;
      const deltas = script.deltas ?? ["Answer ", "text [S1]."];
      for (const [i, delta] of deltas.entries()) {
        if (i && script.deltaMs) await Bun.sleep(script.deltaMs);
        ctx.emit({ type: "answer", delta });
      }
      return {
        answer: deltas.join(""),
        sources: [sampleSource],
        writer: "extractive",
        tokens_in: 10,
        tokens_out: 5,
      };
    },
  };
  return eng;
}
