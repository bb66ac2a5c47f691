import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

describe("corpus add checks its paths before anything else", () => {
  test("no PATH there: exit 1 naming each, no collection announced or made, no database opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-add-paths-"));
    const env = { DATABASE_PATH: join(dir, "rq.db") };
    const r = await cli(
      ["corpus", "add", join(dir, "nope"), join(dir, "nada.md"), "--collection", "fresh", "--shared"],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain(`skipped: ${join(dir, "nope")}: no such file or folder`);
    expect(r.err).toContain(`skipped: ${join(dir, "nada.md")}: no such file or folder`);
    expect(r.err).not.toContain("new collection");
    expect(r.err).not.toContain("not kept");
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
  });

  test("one PATH there: the import goes on and names the missing one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-add-paths-"));
    const env = { DATABASE_PATH: join(dir, "rq.db") };
    writeFileSync(join(dir, "note.md"), "# Note\n\nThe offsite is in Lisbon in May.");
    const r = await cli(
      ["corpus", "add", join(dir, "note.md"), join(dir, "nope"), "--collection", "fresh", "--shared"],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.out).toStartWith("fresh: 1 added");
    expect(r.err).toContain("new collection fresh");
    expect(r.err).toContain(`skipped: ${join(dir, "nope")}: no such file or folder`);
  });
});
