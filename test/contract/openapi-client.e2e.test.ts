import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openApiTools, runBun, runTool } from "../helpers/openapi-tools.ts";
import { sampleSource, scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { useLongTimeout } from "../setup.ts";
import { CLIENT_PROGRAM, CLIENT_TSCONFIG, RUNNER } from "./openapi-client-program.ts";

useLongTimeout();

/**
 * The document as a client generator uses it: openapi-typescript turns the document the running
 * server serves into types, a program written against them with openapi-fetch type-checks under
 * strict tsc without a cast, and then runs signup → key → query → stream → usage against the same server.
 */

// Installing the tools may take a while on a cold machine; the run itself is seconds.
const INSTALL_AND_RUN_MS = 300_000;
let srv: TestServer;
let work = "";

beforeAll(() => {
  srv = startTestServer({ engine: scriptedEngine() });
});
afterAll(() => {
  srv?.stop(100);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("a typed client generated from /openapi.json", () => {
  test(
    "compiles strict without casts and runs signup → key → query → stream → usage",
    async () => {
      // Inside the tools folder, so that the program's `openapi-fetch` resolves to the installed one.
      work = mkdtempSync(join(await openApiTools(), "client-"));
      const gen = await runTool("openapi-typescript", [`${srv.url}/openapi.json`, "-o", "schema.d.ts"], work);
      expect([gen.code, gen.stderr]).toEqual([0, expect.any(String)]);
      expect(readFileSync(join(work, "schema.d.ts"), "utf8")).toContain('"/api/console/keys": {');

      // The program reads every value through the generated types: nothing may be forced.
      expect(CLIENT_PROGRAM).not.toMatch(/\bas\s+[A-Za-z{[(]|\bany\b|@ts-|[\w)\]]!(?!=)/);
      writeFileSync(join(work, "client.ts"), CLIENT_PROGRAM);
      writeFileSync(join(work, "run.ts"), RUNNER);
      writeFileSync(join(work, "tsconfig.json"), JSON.stringify(CLIENT_TSCONFIG));
      const tsc = await runTool("tsc", ["-p", "tsconfig.json"], work);
      expect([tsc.code, tsc.stdout]).toEqual([0, ""]);

      const ran = await runBun(["run.ts", srv.url], work);
      expect([ran.code, ran.stderr]).toEqual([0, ""]);
      const s = JSON.parse(ran.stdout);

      expect(s.account.email).toMatch(/^typed-[0-9a-f-]{36}@example\.com$/);
      expect(s.account.plan).toBe("free");
      expect(s.key.prefix).toMatch(/^rq-[A-Za-z0-9_-]{9}$/);
      expect([s.key.isFullKey, s.key.status]).toEqual([true, "active"]);
      expect(s.key.listed).toEqual([`${s.key.prefix} active null`]);
      expect(s.refusal).toEqual({ http: 401, status: "error", code: "missing_api_key" });
      expect(s.run).toEqual({
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        header: s.run.requestId,
        status: "ok",
        answer: "Answer text [S1].",
        sources: [`S1 ${sampleSource.url}`],
        writer: "extractive",
        tokens: [10, 5],
      });
      // The stream as its StreamMessage type reads it: the retry hint first, numbered ids, final last.
      expect(s.stream).toEqual({
        first: "retry: 1000",
        events: ["progress", "progress", "progress", "progress", "source", "progress", "answer", "answer", "final"],
        idsInOrder: true,
        header: expect.stringMatching(/^[0-9a-f-]{36}$/),
        answer: "Answer text [S1].",
      });
      const streamId = s.stream.header;
      expect(s.usage).toEqual({
        plan: "free",
        allowance: [3, 2, 1],
        calls: 2,
        recent: [
          { requestId: streamId, origin: "api", endpoint: "/api/query/stream", keyPrefix: s.key.prefix },
          { requestId: s.run.requestId, origin: "api", endpoint: "/api/query", keyPrefix: s.key.prefix },
        ],
      });

      // Worth something only if tsc really reads the program against the types: a misread field fails.
      const wrong = CLIENT_PROGRAM.replace("const key: string =", "const key: number =");
      expect(wrong).not.toBe(CLIENT_PROGRAM);
      writeFileSync(join(work, "client.ts"), wrong);
      const bad = await runTool("tsc", ["-p", "tsconfig.json"], work);
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toContain("client.ts");
      expect(bad.stdout).toContain("Type 'string' is not assignable to type 'number'");
    },
    INSTALL_AND_RUN_MS,
  );
});
