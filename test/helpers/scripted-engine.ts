import { AppError, type ErrorCode } from "../../src/errors.ts";
import type { Engine, EngineResult, RunContext, Source } from "../../src/research/types.ts";

/** An engine fixture for the service layer: emits the stages, then answers or fails. */
export interface Script {
  delayMs?: number;
  failWith?: ErrorCode;
  /** Never resolves until aborted (for deadline and disconnect tests). */
  hang?: boolean;
  throwRaw?: boolean;
}

export const sampleSource: Source = { id: "S1", title: "Example", url: "https://example.org/a", type: "web", provider: "searxng", snippet: "An example." };

export function scriptedEngine(script: Script = {}): Engine & { calls: number; aborted: number } {
  const eng = {
    calls: 0,
    aborted: 0,
    async run(query: string, ctx: RunContext): Promise<EngineResult> {
      eng.calls++;
      ctx.signal.addEventListener("abort", () => { eng.aborted++; }, { once: true });
      ctx.emit({ type: "progress", stage: "planning", message: "planning", queries: [query] });
      if (script.hang) await new Promise((_, rej) => ctx.signal.addEventListener("abort", () => rej(new AppError("internal_error", "aborted"))));
      if (script.delayMs) await Bun.sleep(script.delayMs);
      ctx.emit({ type: "progress", stage: "searching", message: "searching" });
      if (script.throwRaw) throw new TypeError("boom");
      if (script.failWith) throw new AppError(script.failWith, `scripted ${script.failWith}`);
      ctx.emit({ type: "progress", stage: "reading", message: "reading" });
      ctx.emit({ type: "source", source: sampleSource });
      ctx.emit({ type: "progress", stage: "writing", message: "writing" });
      ctx.emit({ type: "answer", delta: "Answer " });
      ctx.emit({ type: "answer", delta: "text [S1]." });
      return { answer: "Answer text [S1].", sources: [sampleSource], writer: "extractive", tokens_in: 10, tokens_out: 5 };
    },
  };
  return eng;
}
