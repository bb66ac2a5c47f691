import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const env = {
  DATABASE_PATH: join(mkdtempSync(join(tmpdir(), "rq-audit-")), "rq.db"),
  RQ_PASSWORD: "correct horse battery",
};
type Event = {
  at: string;
  action: string;
  actor: string | null;
  target: string | null;
  ip: string | null;
  detail: string | null;
};
const events = async (...flags: string[]): Promise<Event[]> => {
  const r = await cli(["audit", "--json", ...flags], env);
  expect(r.code).toBe(0);
  return (JSON.parse(r.out) as { events: Event[] }).events;
};

describe("audit and the operator's commands", () => {
  test("each operator command that changed something is operator_<command>, newest first; a refused one is not", async () => {
    expect((await cli(["account", "create", "ops@example.com", "--plan", "pro"], env)).code).toBe(0);
    expect((await cli(["account", "create", "ops@example.com"], env)).code).toBe(1);
    expect((await cli(["account", "create", "other@example.com"], env)).code).toBe(0);
    const made = await cli(["key", "create", "ops@example.com", "--name", "ci"], env);
    expect(made.code).toBe(0);
    const all = await events();
    expect(all.map((e) => `${e.action} ${e.target}`)).toEqual([
      "operator_key_create ops@example.com",
      "operator_account_create other@example.com",
      "operator_account_create ops@example.com",
    ]);
    expect(all[0]).toMatchObject({ actor: "operator", ip: null, detail: "--name ci" });
    expect(all[2]!.detail).toBe("--plan pro");
    // The key and the password are in no event.
    const text = JSON.stringify(all);
    expect(text).not.toContain(made.out.trim());
    expect(text).not.toContain(env.RQ_PASSWORD);
    // --account: the events about that account; --since: from that time on.
    expect((await events("--account", "other@example.com")).map((e) => e.action)).toEqual(["operator_account_create"]);
    expect(await events("--since", "2999-01-01")).toEqual([]);
    expect(await events("--since", all[2]!.at)).toHaveLength(3);
    const table = await cli(["audit"], env);
    expect(table.out.split("\n")[0]!.split(/\s{2,}/)).toEqual(["AT", "ACTION", "ACTOR", "TARGET", "IP", "DETAIL"]);
    const bad = await cli(["audit", "--since", "yesterday"], env);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("--since");
    expect((await cli(["audit", "--account", "nobody@example.com"], env)).code).toBe(1);
  });
});
