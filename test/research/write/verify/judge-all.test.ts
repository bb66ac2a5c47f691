import { describe, expect, test } from "bun:test";
import { checkClaim, evidenceSentences, prepareEvidence } from "../../../../src/research/write/verify/check-claim.ts";
import { judge, judgeAll } from "../../../../src/research/write/verify/learned-check.ts";

const CLAIM =
  "Removing five to ten large derelict objects each year would stabilise the debris population in low Earth orbit.";
const RIGHT =
  "Simulations of the debris environment were run for two hundred years. Active removal of derelict rocket bodies and dead satellites was modelled. Taking out five to ten large derelict objects a year stabilises the population of fragments. Without removal, collisions keep adding fragments.";
const WRONG = [
  "Low Earth orbit holds thousands of objects. Objects in low Earth orbit travel at about eight kilometres a second. Tracking networks follow objects larger than ten centimetres in low Earth orbit. Each year more objects are launched into low Earth orbit.",
  "Kessler syndrome describes a cascade of collisions in low Earth orbit. Each collision creates debris that can strike other objects. The debris population in low Earth orbit could grow even with no launches. Large objects are the main source of future debris.",
  "Satellites in low Earth orbit are used for imaging and communications. Large constellations add thousands of objects each year. Operators must move their satellites to avoid debris. Rules ask that dead satellites leave orbit within twenty-five years.",
  "The International Space Station orbits in low Earth orbit. It performs avoidance manoeuvres when debris passes close. Objects each year come within a few kilometres of the station. Shielding protects it from small fragments.",
];

const items = (texts: string[]) =>
  texts.map((t) => {
    const ev = prepareEvidence(evidenceSentences(t), "en");
    return { ev, check: checkClaim(CLAIM, ev) };
  });

describe("judging a claim against every source a run read (judgeAll)", () => {
  test("the source holding the claim's own words outranks pages on its topic that share only the common ones", () => {
    const all = items([WRONG[0]!, RIGHT, ...WRONG.slice(1)]);
    const j = judgeAll(CLAIM, all);
    const best = j.reduce((b, x, i) => (x.supported > j[b]!.supported ? i : b), 0);
    expect(best).toBe(1);
    // Beside the others, the wrong pages weigh less than each would alone.
    for (const i of [0, 2, 3, 4])
      expect(j[i]!.supported).toBeLessThan(judge(CLAIM, all[i]!.ev, all[i]!.check).supported);
  });

  test("a claim against one source alone is judged as judge judges it", () => {
    const [one] = items([RIGHT]);
    expect(judgeAll(CLAIM, [one!])).toEqual([judge(CLAIM, one!.ev, one!.check)]);
  });
});
