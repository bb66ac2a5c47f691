import { LlmError } from "./llm-error.ts";

/** A retry that would start this close to the run's deadline can't finish: it isn't made. */
const MIN_ATTEMPT_MS = 3_000;

/** A wait that ends early, as an aborted LlmError, when the signal fires. */
export const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError("aborted", "aborted"));
    const onAbort = () => {
      clearTimeout(t);
      reject(new LlmError("aborted", "aborted"));
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** Whether a wait of `ms` still leaves a call time before the deadline (epoch ms). */
export const fitsDeadline = (ms: number, deadline?: number, now = Date.now()): boolean =>
  deadline === undefined || now + ms + MIN_ATTEMPT_MS <= deadline;
