import type { Verdict } from "../../contract/envelope.ts";
import type { ErrorItem } from "../../contract/errors.ts";
import type { CheckingModel } from "../llm/checking-model.ts";
import { LlmError } from "../llm/llm-error.ts";
import { promptTokens } from "../llm/token-estimate.ts";
import type { Unsure } from "../write/verify/unsure.ts";

/**
 * A second opinion on the citations the check is least sure of (README "Claims you can check"):
 * each asked of the checking model at once, within a bound of its own and what the run has
 * left; its Yes or No becomes the citation's verdict, anything else leaves the check's verdict
 * and is told in the envelope's `errors`, never failing the run
 * (docs/decisions/0169-a-second-opinion-that-fails-changes-nothing.md).
 */

/** The checking model and its bound, as the engine holds them (VERIFY_BASE_URL set). */
export interface SecondOpinion {
  model: CheckingModel;
  /** The longest the model is waited for in one run, whatever the run has left. */
  boundMs: number;
}

/** A run's own default bound: four questions of a local 7B model, answered together, with room to spare. */
export const SECOND_OPINION_MS = 15_000;
/** What a run keeps after the second opinion: the check's second pass and the final event. */
const RESERVE_MS = 1_000;
/** Less than this left and no model is asked: it could not answer in time. */
const MIN_ASK_MS = 500;
/** The most of a source sent with one claim: the quote and the text around it, never a whole page. */
export const DOCUMENT_TOKENS = 500;

/** What the model said about a run's unsure citations. */
export interface Opinion {
  /** Verdicts by citation key, for VerifyInput.overrides. */
  overrides: [string, Verdict][];
  asked: number;
  /** Citations whose verdict the model turned from kept to removed, or back. */
  changed: number;
  errors: ErrorItem[];
  tokens: { in: number; out: number };
}

const removes = (v: Verdict) => v === "unsupported" || v === "contradicted";

/** The model's answer as a verdict: No keeps a contradiction the check found, else the source does not back the claim. */
export const verdictOfAnswer = (yes: boolean, own: Verdict): Verdict =>
  yes ? "supported" : own === "contradicted" ? "contradicted" : "unsupported";

/** Markdown escapes of a quote (docs/decisions/0125-quoted-text-escaped-as-markdown.md) undone, to find it in the text read. */
const unescaped = (quote: string) => quote.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");

/**
 * The quote with the text around it in its source, up to DOCUMENT_TOKENS: the model sees the
 * sentence the check chose and what frames it. A quote not found as written is sent alone.
 */
export function documentFor(text: string, quote: string): string {
  const flat = text.replace(/\s+/g, " ");
  const first = unescaped(quote).split("…")[0]!.trim();
  const at = first ? flat.indexOf(first) : -1;
  if (at < 0) return unescaped(quote);
  let from = at;
  let to = at + first.length;
  // Grows a sentence-sized step each side in turn while it fits.
  for (let grown = true; grown; ) {
    grown = false;
    const before = Math.max(0, flat.lastIndexOf(" ", Math.max(0, from - 120)));
    if (before < from && promptTokens(flat.slice(before, to)) <= DOCUMENT_TOKENS) [from, grown] = [before, true];
    const after = flat.indexOf(" ", Math.min(flat.length, to + 120));
    const end = after < 0 ? flat.length : after;
    if (end > to && promptTokens(flat.slice(from, end)) <= DOCUMENT_TOKENS) [to, grown] = [end, true];
  }
  return flat.slice(from, to).trim();
}

/** Asks the model about each unsure citation; `texts` is each source's read text by its id in the answer. */
export async function askSecondOpinion(
  unsure: readonly Unsure[],
  texts: ReadonlyMap<string, string>,
  so: SecondOpinion,
  run: { signal: AbortSignal; deadline?: number },
  onCall?: (outcome: string) => void,
): Promise<Opinion> {
  const start = Date.now();
  const end = Math.min(start + so.boundMs, (run.deadline ?? Number.POSITIVE_INFINITY) - RESERVE_MS);
  const opinion: Opinion = { overrides: [], asked: 0, changed: 0, errors: [], tokens: { in: 0, out: 0 } };
  if (!unsure.length) return opinion;
  const who = `the checking model (${so.model.model})`;
  if (end - start < MIN_ASK_MS) {
    const message = `${who} was not asked about ${unsure.length} claims: the run's deadline is too near; their verdicts are the check's own`;
    return { ...opinion, errors: [{ code: "second_opinion_failed", message }] };
  }
  const signal = AbortSignal.any([run.signal, AbortSignal.timeout(end - start)]);
  const failures: string[] = [];
  opinion.asked = unsure.length;
  await Promise.all(
    unsure.map(async (u) => {
      const document = documentFor(texts.get(u.source) ?? "", u.quote);
      opinion.tokens.in += promptTokens(document) + promptTokens(u.claim);
      try {
        const yes = await so.model.ask({ document, claim: u.claim }, { signal, deadline: end });
        const verdict = verdictOfAnswer(yes, u.verdict);
        opinion.tokens.out += 1;
        opinion.overrides.push([u.key, verdict]);
        if (removes(verdict) !== removes(u.verdict)) opinion.changed++;
        onCall?.("ok");
      } catch (e) {
        if (run.signal.aborted) throw e;
        const err = e instanceof LlmError ? e : new LlmError("network", String(e));
        const reason = signal.aborted ? "no answer before the run's bound for it" : err.message;
        failures.push(reason);
        onCall?.(signal.aborted ? "timeout" : err.reason);
      }
    }),
  );
  // Answers arrive in any order: the overrides are listed in the unsure order, so a replay reads the same.
  const order = new Map(unsure.map((u, i) => [u.key, i]));
  opinion.overrides.sort((a, b) => order.get(a[0])! - order.get(b[0])!);
  if (failures.length) {
    const message = `${who} could not judge ${failures.length} of ${unsure.length} claims, whose verdicts are the check's own: ${failures[0]}`;
    opinion.errors.push({ code: "second_opinion_failed", message });
  }
  return opinion;
}

/** The `verifying` event's words for what the model did. */
export const opinionWords = (o: Opinion) =>
  o.asked
    ? `; the checking model was asked about ${o.asked} claims and changed ${o.changed}${o.errors.length ? " (some failed: see errors)" : ""}`
    : o.errors.length
      ? "; the checking model was not asked: the run's deadline is too near"
      : "";
