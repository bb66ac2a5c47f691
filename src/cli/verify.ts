import { streamLines } from "../corpus/import/jsonl-lines.ts";
import { normalizeLanguage } from "../research/plan/language.ts";
import { checkClaim, prepareEvidence } from "../research/write/verify/check-claim.ts";
import { backing, judge, THRESHOLDS, verdictOf } from "../research/write/verify/learned-check.ts";
import type { CommandInput } from "./command.ts";
import { warn } from "./terminal.ts";

/** A line longer than this is refused (a whole book as one claim's evidence is a mistake, not input). */
const MAX_LINE = 64 * 1024 * 1024;

interface Item {
  id: unknown;
  claim: string;
  evidence: string[];
  language?: string;
}

/** Why a parsed line can't be checked, or null. */
function problem(v: unknown): string | null {
  if (!v || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  const o = v as Record<string, unknown>;
  if (!("id" in o)) return "no id";
  if (typeof o.claim !== "string") return "claim is not a string";
  if (!Array.isArray(o.evidence) || o.evidence.some((s) => typeof s !== "string"))
    return "evidence is not an array of strings";
  if (o.language !== undefined && (typeof o.language !== "string" || !normalizeLanguage(o.language)))
    return "language is not a language code";
  return null;
}

/**
 * `verify -`: the runs' claim check as a filter (README "Claims you can check"). Each line
 * `{id, claim, evidence: [sentences], language?}` on stdin gives one line `{id, quotes, support,
 * verdict}` on stdout, in order: `quotes` the evidence indices that back the claim, best first,
 * `verdict` as a run would give the citation (supported, partial, unsupported, contradicted). A line
 * that can't be read is named on stderr with its number and skipped; the exit code is then 1.
 */
export async function verifyCommand({ options }: CommandInput): Promise<number> {
  const fallback = normalizeLanguage(String(options.language ?? "en")) ?? "en";
  let bad = 0;
  for await (const line of streamLines(Bun.stdin.stream(), MAX_LINE)) {
    if (!line.text.trim() && !line.tooLong) continue;
    let item: unknown;
    try {
      item = line.tooLong ? undefined : JSON.parse(line.text);
    } catch {
      item = undefined;
    }
    const why = line.tooLong ? "longer than 64 MiB" : item === undefined ? "not JSON" : problem(item);
    if (why) {
      bad++;
      warn(`line ${line.n}: ${why}; skipped\n`);
      continue;
    }
    const { id, claim, evidence, language } = item as Item;
    const ev = prepareEvidence(evidence, normalizeLanguage(language ?? "") ?? fallback);
    const c = checkClaim(claim, ev);
    const j = judge(claim, ev, c);
    const verdict = verdictOf(c, j, THRESHOLDS.removeBelow);
    process.stdout.write(
      `${JSON.stringify({ id, quotes: c.quotes, support: Math.round(backing(j) * 1e4) / 1e4, verdict })}\n`,
    );
  }
  return bad ? 1 : 0;
}
