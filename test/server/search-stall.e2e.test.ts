import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importPaths } from "../../src/corpus/import/import-paths.ts";
import { buildEngine } from "../../src/research/build-engine.ts";
import type { DeadlineTimer } from "../../src/runs/execute.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { createLogger } from "../../src/util/logger.ts";
import { syntheticDocs } from "../bench/synthetic-corpus.ts";
import { sharedCollection } from "../corpus/collections-helpers.ts";
import { spawnServe } from "../helpers/serve-process.ts";
import { keyedClient, query, startTestServer } from "../helpers/server.ts";
import { readSse } from "../helpers/sse.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

// A collection big enough that a question of its commonest words takes the search a while.
const DOCS = 6_000;
let dir: string;
let question: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rq-stall-"));
  const file = join(dir, "synthetic.jsonl");
  await Bun.write(file, Array.from(syntheticDocs(0, DOCS), (d) => JSON.stringify(d)).join("\n"));
  const store = openSqliteStore(join(dir, "rq.db"));
  await importPaths(store, [file], { collection: await sharedCollection(store, "synthetic") });
  // The hostile question: 2,000 characters of the words most documents hold.
  const common = store.raw
    .query(
      "SELECT substr(term, instr(term, '_') + 1) AS term FROM corpus_terms_vocab ORDER BY doc DESC, term LIMIT 400",
    )
    .all() as {
    term: string;
  }[];
  question = "";
  for (const { term } of common) if (question.length + term.length < 1_999) question += `${term} `;
  store.close();
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a long question of common words over a big collection", () => {
  test("/healthz answers while the run's search is under way, and SIGTERM is heard and ends the process", async () => {
    const {
      proc: p,
      base,
      out: log,
    } = await spawnServe({ DEFAULT_PLAN: "pro", LOCAL_SEARCH: "only", ACADEMIC_PROVIDERS: "none" }, dir);
    try {
      const { key } = await keyedClient(base);
      // The search stage ends with "Found N results": until then the run's search is under way.
      let found = false;
      let started!: () => void;
      const planning = new Promise<void>((r) => {
        started = r;
      });
      const run = query(base, key, { query: question }, {}, "/api/query/stream").then((res) =>
        readSse(res, (e) => {
          if (e.event === "progress" && e.data.stage === "planning") started();
          if (e.event === "progress" && e.data.stage === "searching" && typeof e.data.count === "number") found = true;
        }),
      );
      // The run's first event: its collections' search has been asked for.
      await planning;
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(found).toBe(false);
      p.kill("SIGTERM");
      await log.until('"msg":"shutting_down"');
      expect(found).toBe(false);
      // The run under way still gets its end, then the process exits.
      const stream = await run;
      expect(stream.events.at(-1)?.event).toBe("final");
      expect(await p.exited).toBe(0);
    } finally {
      p.kill("SIGKILL");
    }
  });
});

describe("a run whose search is slow", () => {
  test("ends by its deadline as run_timeout while the search runs, and the next run searches again", async () => {
    // The first run's deadline is passed on cue; later runs keep theirs (the default minutes).
    const deadlines: (() => void)[] = [];
    const runDeadline: DeadlineTimer = (onTimeout) => {
      deadlines.push(onTimeout);
      return () => {};
    };
    const srv = startTestServer({
      env: {
        DATABASE_PATH: join(dir, "rq.db"),
        DEFAULT_PLAN: "pro",
        LOCAL_SEARCH: "only",
        ACADEMIC_PROVIDERS: "none",
        LOG_LEVEL: "silent",
      },
      logger: createLogger("silent"),
      engine: (config, logger, store) => buildEngine(config, logger, undefined, undefined, store),
      runDeadline,
    });
    try {
      const { key } = await keyedClient(srv.url);
      let found = false;
      const stream = await query(srv.url, key, { query: question }, {}, "/api/query/stream").then((res) =>
        readSse(res, (e) => {
          if (e.event === "progress" && e.data.stage === "planning" && !found) deadlines[0]?.();
          if (e.event === "progress" && e.data.stage === "searching" && typeof e.data.count === "number") found = true;
        }),
      );
      const final = stream.events.at(-1)!;
      expect(final.event).toBe("final");
      expect(final.data.status).toBe("error");
      expect(final.data.errors[0].code).toBe("run_timeout");
      // The deadline came while the search ran: it never reported its results.
      expect(found).toBe(false);
      // Its thread was stopped; the next run's search gets a new one and finds documents.
      const next = (await (await query(srv.url, key, { query: "kalox lolox milox" })).json()) as {
        status: string;
        sources: { type: string }[];
      };
      expect(next.status).toBe("ok");
      expect(next.sources.length).toBeGreaterThan(0);
    } finally {
      await srv.stop(100);
      srv.deps.store.close();
    }
  });
});
