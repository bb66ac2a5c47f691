import type { Logger } from "../../util/logger.ts";
import { type Standing, secondsOfMonth, secondsToReset } from "../allowance.ts";
import type { Identity, RunService } from "../service.ts";

/**
 * The IETF httpapi RateLimit fields of the query endpoints (README "The API": RateLimit):
 * one policy, "monthly", whose quota is the plan's runs and whose window is the UTC month
 * the allowance counts; `r` is what the Console shows as remaining, this call counted.
 * Structured-field lists of one item: a string and integer parameters.
 */
function rateLimitFields(s: Standing, retryAfter?: string | null): Record<string, string> {
  // A 429's reset is its Retry-After, taken at the refusal: read again a second may have turned.
  const t = retryAfter ?? secondsToReset(s.at);
  return {
    "ratelimit-policy": `"monthly";q=${s.limit};w=${secondsOfMonth(s.at)}`,
    ratelimit: `"monthly";r=${Math.max(0, s.limit - s.used)};t=${t}`,
  };
}

/**
 * `res` with the account's RateLimit fields, read now (after any acceptance of this call).
 * A read that fails leaves them off: the answer itself must not change for them.
 */
export async function withRateLimit(runs: RunService, who: Identity, res: Response, logger: Logger): Promise<Response> {
  try {
    const s = await runs.standing(who);
    const retryAfter = res.status === 429 ? res.headers.get("retry-after") : null;
    if (s) for (const [k, v] of Object.entries(rateLimitFields(s, retryAfter))) res.headers.set(k, v);
  } catch (e) {
    logger.warn("ratelimit_unread", { error: String(e) });
  }
  return res;
}
