import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli/commands.ts";
import { configKeys } from "../../src/config/load.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/** A database path in a fresh directory: it exists afterwards only if a command opened it. */
const freshDb = () => join(mkdtempSync(join(tmpdir(), "rq-usage-lines-")), "rq.db");

const usageOf = (help: string) => help.split("\n")[0]!;

describe("usage lines and --help, through the CLI as a process", () => {
  test("serve --help names every configuration variable, one line each with its default, in groups", async () => {
    const { out, code } = await cli(["serve", "--help"]);
    expect(code).toBe(0);
    const config = out.slice(out.indexOf("Configuration (environment variables"));
    expect(config.length).toBeGreaterThan(0);
    for (const heading of ["Server:", "Database:", "Model:", "Search and runs:", "Plans:", "Accounts and sign-in:"])
      expect(config).toContain(`\n${heading}\n`);
    const lines = config.split("\n").filter((l) => /^ {2}[A-Z][A-Z_]+ /.test(l));
    expect(lines.map((l) => l.trim().split(/\s+/)[0]).sort()).toEqual([...configKeys].sort());
    expect(lines.find((l) => l.trim().startsWith("PORT "))).toContain("(default: 3000)");
    expect(lines.find((l) => l.trim().startsWith("LOCAL_SEARCH "))).toContain("(default: auto)");
  });

  test("every command's usage line shows its required flags bare and its optional ones in brackets", async () => {
    for (const cmd of COMMANDS) {
      const { out, code } = await cli([...cmd.name.split(" "), "--help"]);
      expect(code, cmd.name).toBe(0);
      const usage = usageOf(out);
      for (const [name, o] of Object.entries(cmd.options)) {
        const grouped = cmd.oneOf?.some((g) => g.names.includes(name));
        if (grouped) continue;
        const flag = `--${name}${o.value ? ` ${o.value}` : ""}`;
        if (o.required) {
          expect(usage, cmd.name).toContain(` ${flag}`);
          expect(usage, cmd.name).not.toContain(`[${flag}`);
        } else expect(usage, cmd.name).toContain(`[${flag}`);
      }
    }
  });

  test("db copy shows --to as required, and without it is a usage error that opens nothing", async () => {
    expect(usageOf((await cli(["db", "copy", "--help"])).out)).toBe("usage: research-query db copy --to URL|FILE");
    const db = freshDb();
    const r = await cli(["db", "copy"], { DATABASE_PATH: db });
    expect(r.code).toBe(2);
    expect(r.err).toContain("research-query db copy: missing --to URL|FILE");
    expect(r.err).toContain("usage: research-query db copy --to URL|FILE ");
    expect(existsSync(db)).toBe(false);
  });

  test("flags or arguments that exclude each other show as one group, and two of a group are refused before anything runs", async () => {
    expect(usageOf((await cli(["account", "confirm", "--help"])).out)).toBe(
      "usage: research-query account confirm (EMAIL... | --all-unproven)",
    );
    expect(usageOf((await cli(["corpus", "remove", "--help"])).out)).toBe(
      "usage: research-query corpus remove NAME [DOC_ID...] [--owner EMAIL | --shared] [--json]",
    );
    const db = freshDb();
    const both = await cli(["corpus", "remove", "notes", "--owner", "a@example.com", "--shared"], {
      DATABASE_PATH: db,
    });
    expect(both.code).toBe(2);
    expect(both.err).toContain("give either --owner EMAIL or --shared, not both");
    expect(existsSync(db)).toBe(false);
    const neither = await cli(["account", "confirm"], { DATABASE_PATH: db });
    expect([neither.code, neither.err.split("\n")[0]]).toEqual([
      2,
      "research-query account confirm: give either EMAIL... or --all-unproven",
    ]);
    expect(existsSync(db)).toBe(false);
  });
});
