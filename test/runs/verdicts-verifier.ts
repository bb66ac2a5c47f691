import type { Verifier } from "../../src/research/engine/verify-stage.ts";

/**
 * A claim check that answers with every verdict the display must show, whatever the writer
 * wrote: a backed claim, one its first source contradicts (marker removed, item kept), one it
 * backs in part (marker kept) and one whose marker the check moved to the second source
 * (`recited`). It drives the web app, the
 * Console, `ask` and MCP while the real check's re-citing is built elsewhere.
 */

export const BACKED = "Solid-state batteries are limited by dendrites growing through the ceramic electrolyte.";
export const CONTRADICTED = "The Q3 cells shorted after 400 cycles.";
export const CONTRADICTING_QUOTE =
  "Our Q3 cells shorted after 40 cycles once lithium filaments crossed grain boundaries.";
export const PARTIAL = "Stack pressure above 5 MPa slowed the growth at every temperature.";
export const PARTIAL_QUOTE = "Stack pressure above 5 MPa slowed the growth.";
export const RECITED = "Coatings of lithium niobate lowered the interface resistance.";
export const RECITED_QUOTE = "Coatings of lithium niobate lowered the resistance in our tests.";

const marked = (claim: string, id: string) => `${claim.slice(0, -1)} [${id}].`;

export const VERDICTS_ANSWER = `${marked(BACKED, "S1")} ${CONTRADICTED} ${marked(PARTIAL, "S1")} ${marked(RECITED, "S2")}`;

export const VERDICTS_VERIFICATION = {
  claims: 4,
  cited: 4,
  supported: 2,
  unsupported: 1,
  coverage: 0.5,
  contradicted: 1,
  recited: 1,
};

/** Needs two sources in the run (the extractive writer over BATTERY_NOTES gives them). */
export const verdictsVerifier: Verifier = async ({ sources }) => {
  const [first, second] = sources;
  if (!first || !second) throw new Error(`the verdicts verifier needs two sources, got ${sources.length}`);
  return {
    answer: VERDICTS_ANSWER,
    sources: [
      {
        ...first,
        id: "S1",
        evidence: [
          {
            claim: BACKED,
            quote: "Solid-state batteries are limited by dendrites.",
            support: 0.82,
            verdict: "supported",
          },
          { claim: CONTRADICTED, quote: CONTRADICTING_QUOTE, support: 0.31, verdict: "contradicted" },
          { claim: PARTIAL, quote: PARTIAL_QUOTE, support: 0.4, verdict: "partial" },
        ],
      },
      {
        ...second,
        id: "S2",
        evidence: [{ claim: RECITED, quote: RECITED_QUOTE, support: 0.74, verdict: "supported", recited: true }],
      },
    ],
    verification: VERDICTS_VERIFICATION,
    unsure: [],
  };
};
