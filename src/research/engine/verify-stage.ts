import type { Verification } from "../../contract/envelope.ts";
import type { RunContext, Source } from "../types.ts";
import { answerClaims } from "../write/verify/answer-claims.ts";
import { type Verified, type VerifyInput, verifyInput } from "../write/verify/verify-answer.ts";
import { since } from "./estimate.ts";

/**
 * Where the claim check runs: the server's parse workers, or this thread
 * (docs/decisions/0109-verification-off-the-server-thread.md).
 */
export type Verifier = (input: VerifyInput, signal?: AbortSignal) => Promise<Verified<Source>>;

export const inlineVerifier: Verifier = async (input) => verifyInput(input);

/** The `verifying` progress event's words for its counts. */
export const verifyingMessage = (v: Verification) =>
  `Checked ${v.claims} claims against the sources: ${v.supported} backed by a quote, ${v.unsupported} uncited as unsupported`;

/**
 * The verifying stage (README "Claims you can check"): the written answer's citations checked
 * against what was read, its counts in a `progress` event before `final`.
 */
export async function verifyStage(
  input: VerifyInput,
  ctx: Pick<RunContext, "emit" | "signal">,
  verifier: Verifier,
  t0: number,
): Promise<Verified<Source>> {
  let out: Verified<Source>;
  let message: string;
  try {
    out = await verifier(input, ctx.signal);
    message = verifyingMessage(out.verification);
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    out = unchecked(input);
    message = `The claims could not be checked (${e instanceof Error ? e.message : String(e)}): the answer keeps its citations as written`;
  }
  ctx.emit({ type: "progress", stage: "verifying", message, ...out.verification, ms: since(t0) });
  return out;
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
  };
  return { answer: input.answer, sources: input.sources.map((s) => ({ ...s, evidence: [] })), verification };
}
