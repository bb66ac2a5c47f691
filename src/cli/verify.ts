import { streamLines } from "../corpus/import/jsonl-lines.ts";
import { normalizeLanguage } from "../research/plan/language.ts";
import { checkClaim, prepareEvidence } from "../research/write/verify/check-claim.ts";
import { backing, judge, judgeAll, THRESHOLDS, verdictOf } from "../research/write/verify/learned-check.ts";
import type { CommandInput } from "./command.ts";
import { warn } from "./terminal.ts";

/** A line longer than this is refused (a whole book as one claim's evidence is a mistake, not input). */
const MAX_LINE = 64 * 1024 * 1024;

interface Item {
  id: unknown;
  claim: string;
  evidence?: string[];
  sources?: { id: unknown; evidence: string[] }[];
  language?: string;
}

const sentences = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Why a parsed line can't be checked, or null. */
function problem(v: unknown): string | null {
  if (!v || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  const o = v as Record<string, unknown>;
  if (!("id" in o)) return "no id";
  if (typeof o.claim !== "string") return "claim is not a string";
  if ("evidence" in o === "sources" in o) return "give either evidence or sources, not both or neither";
  if ("evidence" in o && !sentences(o.evidence)) return "evidence is not an array of strings";
  if (
    "sources" in o &&
    (!Array.isArray(o.sources) ||
      !o.sources.length ||
      o.sources.some((x) => !x || typeof x !== "object" || !("id" in x) || !sentences(x.evidence)))
  )
    return "sources is not a non-empty array of {id, evidence: [strings]}";
  if (o.language !== undefined && (typeof o.language !== "string" || !normalizeLanguage(o.language)))
    return "language is not a language code";
  return null;
}

/**
 * One claim against several sources, as a run checks a cited claim against every source it read:
 * each source's quotes, support and verdict, and `best`, the source whose verdict keeps a marker
 * with the highest P(supported), or null when none backs it. A run moves a marker by a stricter
 * rule (recite.ts: supported, above `reciteAt`, a lexical support not ruled out), so `best` names
 * the best backer, not necessarily where a run would move the marker.
 */
function againstSources(claim: string, sources: NonNullable<Item["sources"]>, language: string) {
  const items = sources.map((s) => {
    const ev = prepareEvidence(s.evidence, language);
    return { ev, check: checkClaim(claim, ev) };
  });
  const js = judgeAll(claim, items);
  const out = items.map((it, k) => ({
    id: sources[k]!.id,
    quotes: it.check.quotes,
    support: Math.round(backing(js[k]!) * 1e4) / 1e4,
    verdict: verdictOf(it.check, js[k]!, THRESHOLDS.removeBelow),
  }));
  let best = -1;
  out.forEach((o, k) => {
    if ((o.verdict === "supported" || o.verdict === "partial") && (best < 0 || js[k]!.supported > js[best]!.supported))
      best = k;
  });
  return { sources: out, best: best < 0 ? null : sources[best]!.id };
}

/**
 * `verify -`: the runs' claim check as a filter (README "Claims you can check"). Each line
 * `{id, claim, evidence: [sentences], language?}` on stdin gives one line `{id, quotes, support,
 * verdict}` on stdout, in order: `quotes` the evidence indices that back the claim, best first,
 * `verdict` as a run would give the citation (supported, partial, unsupported, contradicted). A
 * line with `sources: [{id, evidence}]` instead of `evidence` gives `{id, sources: [{id, quotes,
 * support, verdict}], best}`: a swapped citation checked from the command line. A line that can't
 * be read (both fields or neither among them) is named on stderr with its number and skipped; the
 * exit code is then 1.
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
    const { id, claim, evidence, sources, language } = item as Item;
    const lang = normalizeLanguage(language ?? "") ?? fallback;
    if (sources) {
      process.stdout.write(`${JSON.stringify({ id, ...againstSources(claim, sources, lang) })}\n`);
      continue;
    }
    const ev = prepareEvidence(evidence!, lang);
    const c = checkClaim(claim, ev);
    const j = judge(claim, ev, c);
    const verdict = verdictOf(c, j, THRESHOLDS.removeBelow);
    process.stdout.write(
      `${JSON.stringify({ id, quotes: c.quotes, support: Math.round(backing(j) * 1e4) / 1e4, verdict })}\n`,
    );
  }
  return bad ? 1 : 0;
}
