/** The knobs, as tuned in docs/decisions/0106-the-claim-check.md. */
export const TUNING = {
  /** Credit for a near form (same first `prefix` characters, other ending). */
  near: 0.6,
  prefix: 5,
  /** Extra weight of a number, and what a number leaves of the score when the chosen sentences lack it, and when the whole source does. */
  numberWeight: 1.5,
  numberMiss: 0.6,
  numberAbsent: 0.1,
  /** Extra weight of a name (a capitalised word after the claim's first) in the support score. */
  name: 2,
  /** At most this many sentences back one claim; one more must add this much coverage (or be a neighbour). */
  maxSet: 3,
  minGain: 0.08,
  adjacent: 0.03,
  /** Each sentence beyond the first costs this factor: a claim pieced together from far apart is weaker. */
  setDecay: 0.85,
  /** A sentence gives a claim only what stands within this many of its terms, and nothing when the claim's are under `minShare` of them. */
  focusWindow: 40,
  minShare: 0.08,
};
