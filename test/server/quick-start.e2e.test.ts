import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "../cli/run-cli.ts";
import { type ServeProcess, spawnServe } from "../helpers/serve-process.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/**
 * README "Quick start" as a newcomer walks it on a box with no internet and nothing
 * configured: `serve` as a process with no web provider, no model, and the academic databases at
 * closed ports. The start log says what is missing; its own first-query commands
 * (curl and jq, run by bash) end with a message saying what to set, and spend none of the free
 * plan's runs; once a collection holds documents the same question is answered.
 */

const MANUAL = join(import.meta.dir, "../../README.md");

/** The "First query" commands of README "Quick start", one per line, aimed at `host`. */
async function firstQueryCommands(host: string): Promise<string[]> {
  const readme = await Bun.file(MANUAL).text();
  const from = readme.indexOf("```sh\n", readme.indexOf("First query")) + 6;
  const block = readme.slice(from, readme.indexOf("\n```", from));
  return block.split("\n").map((l) => l.replaceAll("localhost:3000", host));
}

async function bash(script: string, cwd: string): Promise<string> {
  const p = Bun.spawn(["bash", "-c", script], { cwd, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(code).toBe(0);
  return out;
}

/** The line of a log (on stdout or stderr) whose msg is `msg`, once it is written. */
async function logLine(s: ServeProcess, msg: string): Promise<Record<string, unknown>> {
  const needle = `"msg":"${msg}"`;
  const text = await Promise.any([s.out.until(needle), s.err.until(needle)]);
  return JSON.parse(text.split("\n").find((l) => l.includes(needle))!);
}

let serve: ServeProcess;
let walk: string;
beforeAll(async () => {
  const closed = (p: string) => `http://127.0.0.1:${closedPort()}/${p}`;
  serve = await spawnServe({
    DEFAULT_PLAN: "free",
    OPENALEX_URL: closed("openalex"),
    ARXIV_URL: closed("arxiv"),
    CROSSREF_URL: closed("crossref"),
  });
  walk = mkdtempSync(join(tmpdir(), "rq-walk-"));
});
afterAll(() => {
  serve.proc.kill();
  rmSync(walk, { recursive: true, force: true });
  rmSync(serve.dir, { recursive: true, force: true });
});

describe("the Quick start on a box with no internet and nothing configured", () => {
  test("the start log warns of each missing piece, naming the variable that adds it", async () => {
    const web = await logLine(serve, "no_web_search");
    expect(web).toMatchObject({ level: "warn" });
    for (const v of ["SEARXNG_URL", "BRAVE_API_KEY", "TAVILY_API_KEY"]) expect(String(web.fix)).toContain(v);
    const llm = await logLine(serve, "no_llm");
    expect(String(llm.fix)).toContain("GROQ_API_KEY");
    expect(String(llm.fix)).toContain("OPENAI_BASE_URL");
    expect(String(llm.meanwhile)).toContain("extractive");
    const academic = await logLine(serve, "academic_unreachable");
    expect(academic.databases).toEqual([
      expect.stringMatching(/^openalex: /),
      expect.stringMatching(/^arxiv: /),
      expect.stringMatching(/^crossref: /),
    ]);
    expect(String(academic.fix)).toContain("HTTPS_PROXY");
  });

  test("the manual's first query says exactly what to do and spends nothing; with documents it answers", async () => {
    const host = serve.base.replace("http://", "");
    const commands = await firstQueryCommands(host);
    expect(commands).toHaveLength(3);
    expect(commands[1]).toContain("jq");
    const usage = `curl -s -b jar ${serve.base}/api/console/usage`;
    // Each command's output on a line of its own; the query four times, as a newcomer retrying would.
    const ask = commands[2]!;
    const keep = 'echo "$KEY" > key.txt';
    const out = await bash([commands[0], commands[1], keep, ...[ask, ask, ask, ask], usage].join("\necho\n"), walk);
    const lines = out.split("\n").filter((l) => l.startsWith("{"));
    const answers = lines.filter((l) => l.includes('"request_id"')).map((l) => JSON.parse(l));
    expect(answers).toHaveLength(4);
    for (const env of answers) {
      expect(env.status).toBe("error");
      expect(env.errors[0].code).toBe("search_unavailable");
      for (const fix of ["SEARXNG_URL", "HTTPS_PROXY", "research-query corpus add"])
        expect(env.errors[0].message).toContain(fix);
    }
    const used = JSON.parse(lines.at(-1)!);
    expect(used.plan).toBe("free");
    expect(used.allowance.used).toBe(0);

    // The fix the message names: documents in a shared collection, added while the server runs.
    const docs = join(walk, "docs");
    rmSync(docs, { recursive: true, force: true });
    mkdirSync(docs);
    writeFileSync(
      join(docs, "base-editing.md"),
      "# Base editing\n\nCRISPR base editing changes a single DNA letter without cutting both strands of the DNA. A base editor joins a Cas9 nickase to a deaminase enzyme.\n",
    );
    const added = await cli(["corpus", "add", docs, "--collection", "notes", "--shared"], {
      DATABASE_PATH: join(serve.dir, "rq.db"),
    });
    expect(added.code).toBe(0);
    const after = await bash(["KEY=$(cat key.txt)", ask, usage].join("\necho\n"), walk);
    const [env, usage2] = after
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(env.status).toBe("ok");
    expect(env.answer).toContain("[S1]");
    expect(env.sources[0]).toMatchObject({ type: "local", collection: "notes" });
    expect(usage2.allowance.used).toBe(1);
  });
});
