import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { startSearchFixtures } from "../fixtures/search-servers.ts";
import { useLongTimeout } from "../setup.ts";
import { cli, MAIN, useCliFixtures } from "./run-cli.ts";

useLongTimeout();

const fx = useCliFixtures();

/** A database path in a fresh directory: it exists afterwards only if a command opened it. */
const freshDb = () => join(mkdtempSync(join(tmpdir(), "rq-usage-")), "rq.db");

describe("CLI usage and exit codes", () => {
  test("--version and -v print package.json's version and exit 0", async () => {
    for (const flag of ["--version", "-v"]) {
      const { out, code } = await cli([flag]);
      expect(code, flag).toBe(0);
      expect(out).toBe(`research-query ${pkg.version}\n`);
    }
    expect((await cli(["--version", "ask"])).code).toBe(2);
  });

  test("no command or an unknown one: the command list on stderr, exit 2", async () => {
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toBe("");
    for (const c of ["serve", "ask", "key list", "key revoke", "--version"]) expect(bare.err).toContain(c);
    const unknown = await cli(["kye", "list"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toBe("");
    expect(unknown.err).toContain("unknown command kye (did you mean key?)");
    expect(unknown.err).toContain("usage: research-query <command>");
  });

  test("ask --jsno is a usage error that spends no run: no upstream asked, no database opened", async () => {
    const db = freshDb();
    const env = { SEARXNG_URL: fx.search.urls.searxng, ACADEMIC_PROVIDERS: "none", DATABASE_PATH: db };
    const asked = fx.search.requests.length;
    const { out, err, code } = await cli(["ask", "What is base editing?", "--jsno"], env);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("research-query ask: unknown option --jsno (did you mean --json?)");
    expect(err).toContain("usage: research-query ask QUESTION|- [--json]");
    expect(err).not.toContain("[searching]");
    expect(fx.search.requests.length).toBe(asked);
    expect(existsSync(db)).toBe(false);
  });

  test("every kind of bad command line is named, with the usage line, exit 2, before anything runs", async () => {
    const db = freshDb();
    const env = { DATABASE_PATH: db, RQ_PASSWORD: "a long password" };
    const cases: [string[], string, string][] = [
      [["ask"], "missing QUESTION|-", "usage: research-query ask "],
      [["ask", "why", "not"], 'unexpected argument "not"', "usage: research-query ask "],
      [["ask", "why", "--json=yes"], "--json takes no value", "usage: research-query ask "],
      [["ask", "why", "--json", "--json"], "--json given twice", "usage: research-query ask "],
      [["serve", "--port", "80"], "unknown option --port", "usage: research-query serve"],
      [["ask", "why", "--constructor"], "unknown option --constructor", "usage: research-query ask "],
      [["extract", "-", "-x"], "unknown option -x", "usage: research-query extract FILE|URL|- [--json]"],
      [["key", "create", "a@example.com", "--name"], "--name needs a value (NAME)", "usage: research-query key create"],
      [
        ["key", "create", "a@example.com", "--name", "--json"],
        "--name needs a value",
        "key create EMAIL [--name NAME]",
      ],
      [
        ["key", "create", "a@example.com", "--nmae", "ci"],
        "unknown option --nmae (did you mean --name?)",
        "key create",
      ],
      [["key", "list"], "missing EMAIL", "usage: research-query key list EMAIL [--json]"],
      [["key", "revoke"], "missing KEY_ID", "usage: research-query key revoke KEY_ID [--json]"],
      [["key", "revoke", "a", "b"], 'unexpected argument "b"', "usage: research-query key revoke"],
      [["key"], "key needs a command: create, list, revoke", "research-query key list EMAIL"],
      [["key", "delete", "x"], "unknown command key delete", "research-query key revoke KEY_ID"],
      [
        ["account", "create", "a@example.com", "--plan", "gold"],
        "--plan must be one of free, pro, researcher",
        "account create",
      ],
      [["account", "create", "a@example.com", "--plan"], "--plan needs a value (PLAN)", "account create"],
      [
        ["account", "set-plan", "a@example.com", "gold"],
        "PLAN must be one of free, pro, researcher",
        "set-plan EMAIL PLAN",
      ],
      [["account", "set-plan", "a@example.com"], "missing PLAN", "usage: research-query account set-plan"],
      [["--json", "ask", "why"], "unknown option --json", "usage: research-query <command>"],
      [["corpus", "unshare", "hr"], "missing --owner EMAIL", "usage: research-query corpus unshare NAME --owner EMAIL"],
      [["corpus", "add", "x", "--owner", "a@x.org", "--owner", "b@x.org"], "--owner given twice", "corpus add PATH"],
      [
        ["mcp", "--server", "http://127.0.0.1:9", "--owner", "a@x.org"],
        "--owner is for local mode",
        "usage: research-query mcp [--server URL] [--owner EMAIL]...",
      ],
    ];
    for (const [args, message, usage] of cases) {
      const { out, err, code } = await cli(args, env);
      const what = args.join(" ");
      expect(code, what).toBe(2);
      expect(out, what).toBe("");
      expect(err, what).toContain(message);
      expect(err, what).toContain(usage);
    }
    expect(existsSync(db)).toBe(false);
  });

  test("-- ends the flags: what follows is an argument even if it looks like one", async () => {
    const env = { DATABASE_PATH: freshDb() };
    const { err, code } = await cli(["key", "list", "--", "--json"], env);
    expect(code).toBe(1);
    expect(err).toContain("no account with email --json");
  });

  test("--help after a command (or help COMMAND) describes that command alone, exit 0", async () => {
    for (const args of [
      ["ask", "--help"],
      ["ask", "-h"],
      ["help", "ask"],
      ["--help", "ask"],
    ]) {
      const { out, code } = await cli(args);
      expect(code, args.join(" ")).toBe(0);
      expect(out).toStartWith("usage: research-query ask QUESTION|- [--json] [--owner EMAIL]...\n");
      expect(out).toContain("--json");
      expect(out).toContain("Exit codes:");
      expect(out).not.toContain("DATABASE_PATH");
    }
    // --help wins over whatever else is on the line: it never runs the command.
    const k = await cli(["key", "revoke", "--help", "--bogus"]);
    expect(k.code).toBe(0);
    expect(k.out).toContain("DELETE /api/console/keys/{key_id}");
    const group = await cli(["key", "--help"]);
    expect(group.code).toBe(0);
    for (const c of ["key create EMAIL", "key list EMAIL", "key revoke KEY_ID"]) expect(group.out).toContain(c);
  });

  test("--help documents the exit codes and --json where it exists", async () => {
    const { out } = await cli(["--help"]);
    expect(out).toMatch(/Exit codes:\n\s+0 +success\n\s+1 +failure.*\n\s+2 +usage error.*\n\s+130 +interrupted/);
    for (const c of ["ask", "extract", "key list", "key revoke"])
      expect((await cli([...c.split(" "), "--help"])).out).toContain("--json");
  });

  test("Ctrl-C during ask stops the run: exit 130", async () => {
    const hung = startSearchFixtures(fx.pages.base);
    hung.setMode("searxng", "hang");
    try {
      const p = Bun.spawn(["bun", MAIN, "ask", "What is base editing?", "--json"], {
        cwd: mkdtempSync(join(tmpdir(), "rq-int-")),
        env: { PATH: process.env.PATH!, SEARXNG_URL: hung.urls.searxng, ACADEMIC_PROVIDERS: "none" },
        stdout: "pipe",
        stderr: "pipe",
      });
      await hung.untilAsked("searxng");
      p.kill("SIGINT");
      expect(await p.exited).toBe(130);
      expect(JSON.parse(await new Response(p.stdout).text()).status).toBe("error");
    } finally {
      hung.stop();
    }
  });
});
