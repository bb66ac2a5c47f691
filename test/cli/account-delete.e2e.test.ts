import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const env = {
  DATABASE_PATH: join(mkdtempSync(join(tmpdir(), "rq-delete-")), "rq.db"),
  RQ_PASSWORD: "correct horse battery",
};

describe("account delete EMAIL [--yes]", () => {
  test("refuses a piped stdin without --yes; with it, the account goes and the trail names it by a hash", async () => {
    expect((await cli(["account", "create", "leaver@example.com"], env)).code).toBe(0);
    expect((await cli(["key", "create", "leaver@example.com"], env)).code).toBe(0);
    const piped = await cli(["account", "delete", "leaver@example.com"], env, "leaver@example.com\n");
    expect(piped.code).toBe(2);
    expect(piped.err).toContain("--yes");
    expect((await cli(["account", "list", "--json"], env)).out).toContain("leaver@example.com");

    const done = await cli(["account", "delete", "LEAVER@example.com", "--yes"], env);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toEqual({ deleted: "leaver@example.com" });
    expect((await cli(["account", "delete", "leaver@example.com", "--yes"], env)).code).toBe(1);

    const db = new Database(env.DATABASE_PATH, { readonly: true });
    const dump = JSON.stringify(db.query("SELECT * FROM audit_events ORDER BY id").all());
    const rows = db.query("SELECT action, actor, target FROM audit_events ORDER BY id").all() as {
      action: string;
      actor: string;
      target: string;
    }[];
    db.close();
    expect(dump).not.toContain("leaver@example.com");
    expect(rows.map((r) => r.action)).toEqual([
      "operator_account_create",
      "operator_key_create",
      "operator_account_delete",
    ]);
    const hash = rows[2]!.target;
    expect(hash).toMatch(/^deleted:[0-9a-f]{24}$/);
    expect(rows[2]!.actor).toBe("operator");
    // The earlier entries name the person by the same hash.
    expect(rows[0]!.target).toBe(hash);
  });
});
