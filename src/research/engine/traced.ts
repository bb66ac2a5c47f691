import type { Attributes } from "@opentelemetry/api";
import { endSpan, pastSpan, type Span, startSpan } from "../../util/tracing/spans.ts";
import type { RunScope } from "./run-scope.ts";
import type { Stage } from "./stages.ts";

/** The code a span records for what a stage threw: ours (the ERRORS table's, an LlmError's reason), else internal_error. */
export function errorCodeOf(e: unknown): string {
  const code = (e as { code?: unknown; reason?: unknown } | null)?.code ?? (e as { reason?: unknown } | null)?.reason;
  return typeof code === "string" ? code : "internal_error";
}

/** A span under the run's, carrying its request id (every span of a run does). */
export function runChild(run: RunScope, name: string, parent: Span | undefined, attrs: Attributes = {}) {
  return startSpan(name, parent, { "research.request_id": run.ctx.requestId ?? "", ...attrs });
}

/** A span under the run's that started `ms` ago and ends now (a provider call, a page read), with the run's id. */
export function pastRunChild(run: RunScope, name: string, ms: number, attrs: Attributes): Span | undefined {
  return pastSpan(name, run.ctx.span, ms, { "research.request_id": run.ctx.requestId ?? "", ...attrs });
}

/**
 * `stage` inside a span `name` under the run's (traces on): the stage's own spans hang under
 * `run.spans.stage` while it runs, and a throw ends it with the error's code.
 */
export function traced<In, Out>(name: string, stage: Stage<In, Out, RunScope>): Stage<In, Out, RunScope> {
  return async (input, run) => {
    if (!run.ctx.span) return stage(input, run);
    const span = runChild(run, name, run.ctx.span);
    run.spans.stage = span;
    try {
      const out = await stage(input, run);
      endSpan(span);
      return out;
    } catch (e) {
      endSpan(span, errorCodeOf(e));
      throw e;
    }
  };
}

/** The GenAI semantic conventions of one model call that finished: the estimates the envelope's usage adds up. */
export function genAi(
  span: Span | undefined,
  o: { provider: string; model: string; tokensIn: number; tokensOut: number },
) {
  span?.setAttributes({
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": o.provider,
    "gen_ai.request.model": o.model,
    "gen_ai.usage.input_tokens": o.tokensIn,
    "gen_ai.usage.output_tokens": o.tokensOut,
    // A call counts only when the model stopped on its own (src/research/llm/chat-stream.ts).
    "gen_ai.response.finish_reasons": ["stop"],
  });
}

/** A retry of a model call, as an event of its span. */
export const onRetryEvent =
  (span: Span | undefined) =>
  (attempt: number, reason: string): void => {
    span?.addEvent("retry", { "research.retry.attempt": attempt, "error.type": reason });
    span?.setAttribute("research.retries", attempt);
  };
