import type { Verification, Writer } from "../../contract/envelope.ts";
import type { ErrorItem } from "../../contract/errors.ts";
import { since } from "../../util/time.ts";
import type { EngineResult, Source } from "../types.ts";
import { finalizeCitations } from "../write/citations.ts";
import { markersAtSentenceEnds } from "../write/marker-places.ts";
import { answerClaims } from "../write/verify/answer-claims.ts";
import { type Verified, type VerifyInput, verifyInput } from "../write/verify/verify-answer.ts";
import type { RunScope } from "./run-scope.ts";
import { askSecondOpinion, opinionWords } from "./second-opinion.ts";
import type { Written } from "./write-stage.ts";

/**
 * Where the claim check runs: the server's parse workers, or this thread
 * (docs/decisions/0109-verification-off-the-server-thread.md).
 */
export type Verifier = (input: VerifyInput, signal?: AbortSignal) => Promise<Verified<Source>>;

export const inlineVerifier: Verifier = async (input) => verifyInput(input);

/**
 * The `verifying` progress event's words for its counts. An extractive answer's claims are
 * quotes, found again in their source rather than backed by one
 * (docs/decisions/0141-an-extractive-answer-says-it-quotes.md).
 */
export const verifyingMessage = (v: Verification, writer?: Writer | null) =>
  (writer === "extractive"
    ? `Checked ${v.claims} quotes against the sources they were taken from: ${v.supported} found there, ${v.unsupported} uncited`
    : `Checked ${v.claims} claims against the sources: ${v.supported} backed by a quote, ${v.unsupported} uncited as unsupported`) +
  verdictsMessage(v);

/**
 * What else the check did, in the words every entry uses for it (the activity log, the
 * Console's timeline, `ask` and MCP), so they read alike without the counts' fields
 * (docs/decisions/0173-verdicts-in-words-in-the-timeline-ask-and-mcp.md).
 */
export function verdictPhrases(v: Verification): string[] {
  return [
    v.contradicted ? `${v.contradicted} contradicted by a quote` : "",
    v.recited ? `${v.recited} ${v.recited === 1 ? "marker" : "markers"} moved to a source that backs the claim` : "",
  ].filter(Boolean);
}

function verdictsMessage(v: Verification): string {
  const said = verdictPhrases(v);
  return said.length ? `; ${said.join(", ")}` : "";
}

/**
 * The last stage: the answer's citations settled (a marker splitting a clause moved to its
 * sentence's end, unknown markers dropped, sources renumbered by first citation), then checked against what was read (README "Claims you can check").
 */
export async function verifyStage({ language, text, provided, texts }: Written, run: RunScope): Promise<EngineResult> {
  const written = finalizeCitations(markersAtSentenceEnds(text), provided);
  run.ctx.emit({
    type: "progress",
    stage: "writing",
    message: `Answer written with ${written.sources.length} cited sources`,
    cited: written.sources.length,
    chars: written.answer.length,
    ms: since(run.t0),
  });
  if (!written.sources.length && !run.deps.llm) return nothingQuoted(written.answer, run);
  // Every source the writer was given goes to the check, the uncited numbered after the cited: a marker may move to one of them.
  const uncited = provided.filter((s) => !written.was.includes(s.id));
  const all = [...written.sources, ...uncited.map((s, i) => ({ ...s, id: `S${written.sources.length + i + 1}` }))];
  const read = [...written.was, ...uncited.map((s) => s.id)].map((old, i): [string, string] => [
    `S${i + 1}`,
    texts.get(old) ?? "",
  ]);
  const final = await checkClaims({ answer: written.answer, sources: all, texts: read, language }, run);
  return {
    answer: final.answer,
    sources: final.sources,
    verification: final.verification,
    writer: run.deps.llm ? "llm" : "extractive",
    tokens_in: run.tokens.in,
    tokens_out: run.tokens.out,
    ...(final.errors.length ? { errors: final.errors } : {}),
  };
}

/**
 * An extractive answer that quotes nothing (no source on the question): no claim to check, no
 * source listed (docs/decisions/0140-an-answer-when-no-source-is-on-the-question.md).
 */
function nothingQuoted(answer: string, run: RunScope): EngineResult {
  const verification: Verification = {
    claims: 0,
    cited: 0,
    supported: 0,
    unsupported: 0,
    coverage: 0,
    contradicted: 0,
    recited: 0,
  };
  const message = "Nothing to check: no source found is on the question, so none is quoted";
  run.ctx.emit({ type: "progress", stage: "verifying", message, ...verification, ms: since(run.t0) });
  return { answer, sources: [], verification, writer: "extractive", tokens_in: 0, tokens_out: 0 };
}

/**
 * The claim check, its counts in a `progress` event before `final`; a check that failed leaves
 * the answer as written. With a checking model (VERIFY_BASE_URL), the citations the check is
 * least sure of are put to it and the check runs again with its verdicts, so markers are cut
 * by one rule (docs/decisions/0168-the-claims-a-second-opinion-is-asked-about.md).
 */
async function checkClaims(input: VerifyInput, run: RunScope): Promise<Verified<Source> & { errors: ErrorItem[] }> {
  const { ctx, deps } = run;
  const verifier = deps.verifier ?? inlineVerifier;
  const writer: Writer = deps.llm ? "llm" : "extractive";
  let out: Verified<Source>;
  let message: string;
  const errors: ErrorItem[] = [];
  try {
    out = await verifier(input, ctx.signal);
    message = verifyingMessage(out.verification, writer);
    if (deps.secondOpinion && out.unsure.length) {
      const texts = new Map(input.texts);
      const onCall = deps.onUpstream && ((outcome: string) => deps.onUpstream?.("verify", outcome));
      const o = await askSecondOpinion(out.unsure, texts, deps.secondOpinion, ctx, onCall);
      run.tokens.in += o.tokens.in;
      run.tokens.out += o.tokens.out;
      // The checking model's calls are the run's third kind of model call: their tokens are in the envelope's usage too.
      run.spans.stage?.setAttributes({
        "research.second_opinion.asked": o.asked,
        "gen_ai.usage.input_tokens": o.tokens.in,
        "gen_ai.usage.output_tokens": o.tokens.out,
      });
      errors.push(...o.errors);
      // A second pass that fails (a worker crash) keeps the first one's verdicts, as if no model had answered.
      const second = o.overrides.length
        ? await verifier({ ...input, overrides: o.overrides }, ctx.signal).catch((e: unknown) => {
            if (ctx.signal.aborted) throw e;
            errors.push({
              code: "second_opinion_failed",
              message: `the checking model's verdicts could not be applied: ${e instanceof Error ? e.message : String(e)}`,
            });
            return null;
          })
        : null;
      if (second) out = second;
      message = verifyingMessage(out.verification, writer) + (second || !o.overrides.length ? opinionWords(o) : "");
    }
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    out = unchecked(input);
    message = `The claims could not be checked (${e instanceof Error ? e.message : String(e)}): the answer keeps its citations as written`;
  }
  ctx.emit({ type: "progress", stage: "verifying", message, ...out.verification, ms: since(run.t0) });
  return { ...out, errors };
}

/**
 * The answer as written, where the check failed on its worker (a crash, the pool's job limit):
 * no marker removed, no quote, nothing counted as supported or unsupported. Redoing the check
 * here instead held every request for as long as it took
 * (docs/decisions/0116-the-claim-check-never-redone-here.md).
 */
function unchecked(input: VerifyInput): Verified<Source> {
  const claims = answerClaims(input.answer);
  const verification: Verification = {
    claims: claims.length,
    cited: claims.filter((c) => c.markers.length).length,
    supported: 0,
    unsupported: 0,
    coverage: 0,
    contradicted: 0,
    recited: 0,
  };
  // The input lists every source the run read; the answer as written cites the first of them.
  const cited = finalizeCitations(input.answer, input.sources, input.sources.length).sources;
  return { answer: input.answer, sources: cited.map((s) => ({ ...s, evidence: [] })), verification, unsure: [] };
}
