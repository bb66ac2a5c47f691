import type { Verification } from "../../contract/envelope.ts";
import type { RunContext, Source } from "../types.ts";
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
  const out = await verifier(input, ctx.signal);
  const v: Verification = out.verification;
  ctx.emit({
    type: "progress",
    stage: "verifying",
    message: verifyingMessage(v),
    ...v,
    ms: since(t0),
  });
  return out;
}
