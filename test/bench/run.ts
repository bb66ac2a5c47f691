import { cpus, totalmem } from "node:os";
import { burstProfile } from "./burst-profile.ts";
import { benchCheckModel } from "./check-model/bench.ts";
import { benchRecite } from "./check-model/recite-bench.ts";
import { benchClaims } from "./claims.ts";
import { benchCorpus } from "./corpus.ts";
import { benchCriticalPath } from "./critical-path.ts";
import { benchExtraction } from "./extraction.ts";
import { benchExtractiveRelevance } from "./extractive-relevance.ts";
import { benchHeldStreams } from "./held-streams.ts";
import { benchInstances } from "./instances.ts";
import { benchOpenaiFront } from "./openai-front.ts";
import { benchSecondOpinion } from "./second-opinion/bench.ts";
import { benchSentences } from "./sentences.ts";
import { benchServing } from "./serving.ts";
import { benchSignupFlood } from "./signup-flood.ts";
import { benchSpentKeyFlood } from "./spent-key-flood.ts";
import { benchSqliteWrites } from "./sqlite-writes.ts";
import { benchStartup } from "./startup.ts";
import { benchTraces } from "./traces.ts";
import { benchUploads } from "./uploads.ts";
import { benchVerifyThread } from "./verify-thread.ts";

// `bun run bench` (BUN_CONFIG_MAX_HTTP_REQUESTS raised: Bun caps concurrent fetches at 256).
const sections: [string, () => Promise<string>][] = [
  ["1. Reading: main-content extraction", benchExtraction],
  ["2. Serving overhead", async () => `${await benchServing()}\n\n${await benchSqliteWrites()}`],
  ["3. Held connections", () => benchHeldStreams(Number(process.env.BENCH_STREAMS ?? 2000))],
  ["4. The critical path of a run", () => benchCriticalPath()],
  ["5. Startup and size", () => benchStartup()],
  ["6. Sign-in during a sign-up flood", () => benchSignupFlood()],
  ["7. Collections", benchCorpus],
  ["8. Instances and PostgreSQL", benchInstances],
  ["9. Uploads", benchUploads],
  ["10. Claims you can check", async () => `${await benchClaims()}\n\n${await benchVerifyThread()}`],
  [
    "11. Where a crowd's first event goes",
    async () => `${await burstProfile("ramp", 2000, 2000)}\n\n${await burstProfile("burst", 2000, 0)}`,
  ],
  ["12. Runs during a spent key's flood", () => benchSpentKeyFlood()],
  ["13. Extractive answers that quote only relevant sources", benchExtractiveRelevance],
  ["14. Answers on sentences: wrapped text, PDFs, Markdown", benchSentences],
  ["15. The learned claim check", benchCheckModel],
  ["16. Re-citing a marker", benchRecite],
  ["17. A second opinion", benchSecondOpinion],
  ["18. An OpenAI-compatible front", () => benchOpenaiFront()],
  ["19. Traces", () => benchTraces()],
];
const only = process.argv[2];
for (const [title, fn] of sections) {
  if (only && !title.startsWith(only)) continue;
  console.error(`running ${title}…`);
  const text = await fn();
  console.log(`\n## ${title}\n\n${text}`);
}
// The machine line heads the report; test/bench/RESULTS.md keeps a commented copy of a run.
console.log(
  `\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}.`,
);
