import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Source } from "../../src/contract/envelope.ts";
import { markdownText } from "../../src/corpus/import/markdown-text.ts";
import { finalizeCitations } from "../../src/research/write/citations.ts";
import { writeExtractive } from "../../src/research/write/extractive-writer.ts";
import { verifyAnswer } from "../../src/research/write/verify/verify-answer.ts";
import { splitPassages, splitSentences } from "../../src/text/passages.ts";
import { pdfToText } from "../../src/text/pdf.ts";
import { FRAGMENT_SET, STORED_WITH_LINE_BREAKS } from "../fixtures/fragment-set.ts";
import { answerFaults, type FragmentFaults } from "../helpers/fragment-check.ts";
import { hardWrap, hyphensRead } from "./hard-wrap.ts";

// SciFact's labelled train pairs with the release's own sentence split (../shared/data/scifact-claims/): read in place, never copied.
const TRAIN = join(import.meta.dir, "../../../shared/data/scifact-claims/train.jsonl.gz");

interface Pair {
  id: number;
  claim: string;
  doc_id: number;
  title: string;
  sentences: string[];
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim();
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : "—");

/** The answer without a model to `question` over one document's text, checked as a run checks it. */
function answerOver(question: string, title: string, text: string, passages = splitPassages(text)) {
  const answer = writeExtractive(question, "en", [{ id: "S1", title, url: "https://example.org/d", passages }]);
  const source = { id: "S1", title, url: "https://example.org/d", type: "local", provider: "local", snippet: "" };
  const fin = finalizeCitations(answer, [source as Source]);
  return verifyAnswer(fin.answer, fin.sources, new Map([["S1", text]]), "en");
}

interface Tally {
  answers: number;
  empty: number;
  inside: number;
  cutAnswers: number;
  pieces: number;
  cutPieces: number;
  apart: number;
}
const tally = (): Tally => ({ answers: 0, empty: 0, inside: 0, cutAnswers: 0, pieces: 0, cutPieces: 0, apart: 0 });
function add(t: Tally, f: FragmentFaults) {
  t.answers++;
  if (!f.pieces.length) t.empty++;
  if (f.markerInside) t.inside++;
  if (f.cut) t.cutAnswers++;
  if (f.apart) t.apart++;
  t.pieces += f.pieces.length;
  t.cutPieces += f.cut;
}
const row = (name: string, t: Tally) =>
  `| ${name} | ${t.answers} | ${pct(t.inside, t.answers)} | ${pct(t.cutAnswers, t.answers)} | ${pct(t.cutPieces, t.pieces)} (${t.pieces}) | ${pct(t.apart, t.answers)} | ${t.empty} |`;

/** The fragment set, read as `corpus add` reads each format, and as an earlier import stored it. */
async function fragmentRows(): Promise<string[]> {
  const imported = tally();
  for (const d of FRAGMENT_SET) {
    const text = d.file.endsWith(".pdf")
      ? (await pdfToText(d.bytes as Uint8Array)).text
      : d.file.endsWith(".md")
        ? markdownText(d.bytes as string).text
        : (d.bytes as string);
    const sentences = new Set(FRAGMENT_SET.flatMap((x) => x.sentences));
    add(
      imported,
      answerFaults(answerOver(d.question, d.file, text), (s) => sentences.has(s), d.apart),
    );
  }
  const stored = tally();
  for (const s of STORED_WITH_LINE_BREAKS) {
    const d = FRAGMENT_SET.find((x) => x.file === s.id)!;
    add(
      stored,
      answerFaults(answerOver(d.question, s.title, s.text, [s.text]), (x) => d.sentences.includes(x), d.apart),
    );
  }
  return [row("fragment set, imported", imported), row("fragment set, stored with line breaks", stored)];
}

/** Whole sentences of an abstract, and runs of up to four of them (the splitter keeps "et al." and short pieces together). */
function wholeOf(sentences: string[]): (s: string) => boolean {
  const ok = new Set<string>();
  const ss = sentences.map(norm);
  for (let i = 0; i < ss.length; i++)
    for (let j = i + 1; j <= Math.min(ss.length, i + 4); j++) ok.add(ss.slice(i, j).join(" "));
  return (s) => ok.has(norm(s));
}

export async function benchSentences(): Promise<string> {
  const head = [
    "| documents | answers | a marker inside a sentence | a sentence cut | quoted pieces cut (pieces) | a heading, code or table quoted | no answer |",
    "|---|---|---|---|---|---|---|",
    ...(await fragmentRows()),
  ];
  if (!existsSync(TRAIN))
    return `${head.join("\n")}\n\nSciFact: skipped — ${TRAIN} is missing (see ../shared/data/README.md).`;
  const pairs = (await new Response(Bun.gunzipSync(await Bun.file(TRAIN).bytes())).text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Pair)
    // Structured abstracts hold section words and line breaks inside their sentences: left out.
    .filter((p) => p.sentences.every((s) => !s.includes("\n")));
  const variants = [
    ["SciFact train, wrapped at 72 (a text file)", 72, false, "\n\n"],
    ["SciFact train, wrapped at 60 and hyphenated (a PDF)", 60, true, "\n"],
  ] as const;
  const rows: string[] = [];
  const hy = { split: [0, 0], compound: [0, 0] };
  for (const [name, width, hyphenate, afterTitle] of variants) {
    const t = tally();
    for (const p of pairs) {
      const { lines, hyphens } = hardWrap(p.sentences.map(norm).join(" "), width, hyphenate);
      const text = `${p.title}${afterTitle}${lines.join("\n")}`;
      add(t, answerFaults(answerOver(p.claim, p.title, text), wholeOf(p.sentences), [p.title]));
      const read = hyphensRead(splitSentences(text).join("\n"), hyphens);
      for (const k of ["split", "compound"] as const) {
        hy[k][0]! += read[k][0];
        hy[k][1]! += read[k][1];
      }
    }
    rows.push(row(name, t));
  }
  return [
    ...head,
    ...rows,
    "",
    "| line-end hyphens in the hyphenated SciFact text | set | read right |",
    "|---|---|---|",
    `| a word split by the typesetter ("kilo-/gram" → "kilogram") | ${hy.split[1]} | ${pct(hy.split[0]!, hy.split[1]!)} |`,
    `| a compound broken at its hyphen ("well-/known" → "well-known") | ${hy.compound[1]} | ${pct(hy.compound[0]!, hy.compound[1]!)} |`,
  ].join("\n");
}
