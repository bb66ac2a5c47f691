import { abortableSleep, fitsDeadline } from "./deadline.ts";
import { durationMs } from "./limit-facts.ts";
import { LlmError } from "./llm-error.ts";
import { messagesTokens } from "./token-estimate.ts";
import type { ChatRequest } from "./types.ts";

interface Window {
  limit: number;
  remaining: number;
  /** When `remaining` was true (epoch ms). */
  at: number;
  /** Tokens the window gets back per ms. */
  refill: number;
}

const MINUTE = 60_000;
const header = (h: Headers, name: string) => {
  const v = Number(h.get(name));
  return h.has(name) && Number.isFinite(v) ? v : undefined;
};

/**
 * What a provider's rate-limit headers say about each model's tokens-per-minute window
 * (Groq and OpenAI send x-ratelimit-limit-tokens / -remaining-tokens / -reset-tokens on
 * every answer, 429s included). A call that would not fit waits for the window to refill
 * instead of being sent to a certain 429; servers that send no such headers are never paced.
 */
export class TokenWindows {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Learns a model's window from an answer's headers (any status). */
  note(model: string, h: Headers | undefined): void {
    if (!h) return;
    const limit = header(h, "x-ratelimit-limit-tokens");
    const remaining = header(h, "x-ratelimit-remaining-tokens");
    if (limit === undefined || remaining === undefined || limit <= 0) return;
    const reset = durationMs(h.get("x-ratelimit-reset-tokens") ?? "");
    const refill = reset && remaining < limit ? (limit - remaining) / reset : limit / MINUTE;
    this.windows.set(model, { limit, remaining: Math.max(0, remaining), at: this.now(), refill });
  }

  /** Tokens free in the model's window now, as far as we know (null: no window known). */
  free(model: string): number | null {
    const w = this.windows.get(model);
    return w ? Math.min(w.limit, w.remaining + (this.now() - w.at) * w.refill) : null;
  }

  /** How long until `need` tokens are free (a need above the whole window waits for it to be full). */
  waitFor(model: string, need: number): number {
    const w = this.windows.get(model);
    const free = this.free(model);
    if (!w || free === null) return 0;
    const want = Math.min(need, w.limit);
    return free >= want ? 0 : Math.ceil((want - free) / w.refill);
  }

  /** Counts a call about to be sent, so calls sent before the next headers see it too. */
  take(model: string, need: number): void {
    const w = this.windows.get(model);
    const free = this.free(model);
    if (!w || free === null) return;
    this.windows.set(model, { ...w, remaining: Math.max(0, free - need), at: this.now() });
  }

  /**
   * Waits until the call fits its model's window, then counts it. Fails at once, with the
   * numbers, when the window would reopen only after the run's deadline or after `maxWaitMs`.
   */
  async admit(req: ChatRequest, maxWaitMs: number, sleep = abortableSleep): Promise<void> {
    const need = messagesTokens(req.messages) + (req.maxTokens ?? 0);
    const wait = this.waitFor(req.model, need);
    if (wait > 0) {
      if (wait > maxWaitMs || !fitsDeadline(wait, req.deadline, this.now()))
        throw new LlmError(
          "rate_limited",
          `${req.model}'s tokens-per-minute window has ${Math.floor(this.free(req.model) ?? 0)} of ${this.windows.get(req.model)?.limit} tokens free and this call needs about ${need}; it would refill in ${Math.ceil(wait / 1000)} s, too late for this run`,
          { retryable: false },
        );
      await sleep(wait, req.signal);
    }
    this.take(req.model, need);
  }
}
