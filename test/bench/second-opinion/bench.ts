import { loadConfig } from "../../../src/config/load.ts";
import { documentFor, verdictOfAnswer } from "../../../src/research/engine/second-opinion.ts";
import { checkingMessages, createCheckingModel } from "../../../src/research/llm/checking-model.ts";
import { messagesTokens } from "../../../src/research/llm/token-estimate.ts";
import { aurocOf } from "../check-model/cross-validate.ts";
import { haveData, type Row } from "../check-model/data.ts";
import { choose, type Item, loadItems, RUN } from "./items.ts";

/**
 * Section 17 of `bun run bench`: what the configured checking model (VERIFY_*) buys on the
 * tuning data — the check alone against the check with the model's Yes or No on the citations
 * it is least sure of, chosen per run as a run chooses them
 * (docs/decisions/0170-what-a-second-opinion-buys-measured-by-the-operator.md). Only tuning data is read:
 * WiCE's test split and SciFact's dev claims stay held out.
 */

/** What the citation's gold label says a right answer is. */
const truth = (x: Item) => x.label === (x.set === "wice" ? "supported" : "support");
type Answer = (x: Item) => boolean | null | undefined;
const modelAnswer: Answer = (x) => x.yes;
const rightAnswer: Answer = (x) => (x.asked ? truth(x) : undefined);

const removes = (v: string) => v === "unsupported" || v === "contradicted";
const f3 = (x: number) => (Number.isNaN(x) ? "—" : x.toFixed(3).replace(/^0/, ""));
const pct = (x: number) => (Number.isNaN(x) ? "—" : `${(x * 100).toFixed(1)} %`);
const share = (xs: Item[], f: (x: Item) => boolean) => xs.filter(f).length / xs.length;

/** The check's score with an answer laid over it: a Yes above every claim not asked, a No below. */
const scoreWith = (a: Answer) => (x: Item) => {
  const yes = a(x);
  return yes === true ? 1 + x.p : yes === false ? x.p - 1 : x.p;
};
const verdictWith = (a: Answer) => (x: Item) => {
  const yes = a(x);
  return yes === undefined || yes === null ? x.judged.verdict : verdictOfAnswer(yes, x.judged.verdict);
};

/** One data set's rows: the check alone, with always-right answers, with the model's. */
function table(items: Item[], set: Item["set"], pos: string, negs: string[], asked: boolean): string[] {
  const xs = items.filter((x) => x.set === set);
  const rows = xs.map((x) => ({ set, label: x.label }) as Row);
  const auroc = (p: number[]) => aurocOf(rows, p, set, [pos], negs);
  const line = (name: string, score: (x: Item) => number, verdict: (x: Item) => string) => {
    const cut = (x: Item) => removes(verdict(x));
    const acc = share(xs, (x) => cut(x) !== (x.label === pos));
    const removedPos = share(
      xs.filter((x) => x.label === pos),
      cut,
    );
    const removedNeg = share(
      xs.filter((x) => negs.includes(x.label)),
      cut,
    );
    return `| ${set === "wice" ? "WiCE dev" : "SciFact train pairs"} | ${name} | ${f3(auroc(xs.map(score)))} | ${pct(acc)} | ${pct(removedNeg)} / ${pct(removedPos)} |`;
  };
  return [
    line(
      "the check alone",
      (x) => x.p,
      (x) => x.judged.verdict,
    ),
    line(
      "the check + answers always right on its unsure claims (the ceiling)",
      scoreWith(rightAnswer),
      verdictWith(rightAnswer),
    ),
    ...(asked
      ? [line("the check + the model on its unsure claims", scoreWith(modelAnswer), verdictWith(modelAnswer))]
      : []),
  ];
}

const HOW =
  "No checking model configured, so only the ceiling is shown. To measure one: `ollama pull bespoke-minicheck`, then `VERIFY_BASE_URL=http://localhost:11434/v1 bun run bench 17.` (VERIFY_MODEL for another model, VERIFY_API_KEY if the server wants a key; BENCH_VERIFY_LIMIT=100 for the first 100 claims of each set).";

export async function benchSecondOpinion(): Promise<string> {
  if (!haveData()) return "A second opinion: skipped — the tuning data is absent (see ../shared/data/README.md).";
  const cfg = loadConfig(process.env, "/nonexistent");
  const limit = Number(process.env.BENCH_VERIFY_LIMIT ?? Number.POSITIVE_INFINITY);
  const items = loadItems(limit);
  const runs = choose(items);
  const head = (who: string) =>
    `${who}, on the tuning data only (WiCE dev, SciFact train pairs${Number.isFinite(limit) ? `, the first ${limit} of each` : ""}), in runs of ${RUN} citations, at most 4 a run asked. AUROC of the score (the check's support on the wire; an answer puts a Yes above and a No below every claim not asked); markers right: kept (supported, partial) for the supported label, removed otherwise.`;
  const header = [
    "| data | verdicts | AUROC supported vs rest | markers right | removed: not supported / supported |",
    "|---|---|---|---|---|",
  ];
  const chosen = items.filter((x) => x.asked).length;
  if (!cfg.VERIFY_BASE_URL)
    return [
      head("No model"),
      "",
      ...header,
      ...table(items, "wice", "supported", ["partially_supported", "not_supported"], false),
      ...table(items, "pairs", "support", ["contradict", "nei"], false),
      "",
      `Would ask ${chosen} of ${items.length} citations (${(chosen / runs.length).toFixed(2)} a run of ${RUN}).`,
      "",
      HOW,
    ].join("\n");
  const model = createCheckingModel({
    baseUrl: cfg.VERIFY_BASE_URL,
    model: cfg.VERIFY_MODEL,
    apiKey: cfg.VERIFY_API_KEY,
    retry: { retries: 1, baseDelayMs: 500, maxDelayMs: 2_000, maxRetryAfterMs: 30_000 },
  });
  let tokens = 0;
  let failures = 0;
  let firstFailure = "";
  const t0 = performance.now();
  // A run's questions go at once, as in a run; the runs one after another.
  for (const run of runs) {
    await Promise.all(
      run
        .filter((x) => x.asked)
        .map(async (x) => {
          const q = { document: documentFor(x.text, x.judged.quote), claim: x.claim };
          tokens += messagesTokens(checkingMessages(q));
          try {
            x.yes = await model.ask(q, { signal: AbortSignal.timeout(60_000), deadline: Date.now() + 60_000 });
          } catch (e) {
            x.yes = null;
            failures++;
            firstFailure ||= (e as Error).message;
          }
        }),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const asked = items.filter((x) => x.asked);
  const changed = asked.filter((x) => removes(verdictWith(modelAnswer)(x)) !== removes(x.judged.verdict));
  const right = asked.filter((x) => typeof x.yes === "boolean" && x.yes === truth(x)).length;
  return [
    head(`Checking model \`${cfg.VERIFY_MODEL}\` at ${new URL(cfg.VERIFY_BASE_URL).host}`),
    "",
    ...header,
    ...table(items, "wice", "supported", ["partially_supported", "not_supported"], true),
    ...table(items, "pairs", "support", ["contradict", "nei"], true),
    "",
    `Asked: ${asked.length} of ${items.length} citations (${(asked.length / runs.length).toFixed(2)} a run of ${RUN}), its answer right on ${right}, ${changed.length} markers changed, ${failures} failures${firstFailure ? ` (first: ${firstFailure})` : ""}; ${Math.round(tokens / Math.max(1, runs.length))} prompt tokens a run (estimated, an upper bound); ${seconds.toFixed(1)} s in all.`,
  ].join("\n");
}

if (import.meta.main) console.log(await benchSecondOpinion());
