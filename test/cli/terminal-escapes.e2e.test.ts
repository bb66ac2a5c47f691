import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTree } from "../corpus/import/import-fixtures.ts";
import { closedPort } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

// OSC 52 (writes the operator's clipboard), a CSI that clears the screen, BEL, a C1 CSI and a
// right-to-left override: what a hostile file name, title or page text carries.
const OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07";
const CLEAR = "\x1b[2J";
const C1 = "\u009b31m";
const RLO = "\u202e";
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the test
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

function hostileFolder() {
  const dir = mkdtempSync(join(tmpdir(), "rq-escapes-"));
  writeTree(dir, {
    [`docs/pump${OSC52}.md`]: `# Heat pump ${OSC52}notes${RLO}txt.exe\n\nHeat pumps move heat rather than make it ${CLEAR}which is why their efficiency ${C1}can exceed one hundred percent.\n`,
    [`docs/bad${OSC52}.txt`]: new Uint8Array([0, 1, 2, 0]),
  });
  return { docs: join(dir, "docs"), env: { DATABASE_PATH: join(dir, "rq.db") } };
}

/** Output a person reads: no raw control character, the escapes shown as text instead. */
function expectShown(text: string, what: string) {
  expect(RAW.test(text), `${what}: ${JSON.stringify(text)}`).toBe(false);
  expect(text, what).toContain("\\x1b]52;c;cm0gLXJmIH4=\\x07");
}

describe("control characters from files and pages never reach the terminal raw", () => {
  test("corpus add, list, search and ask escape them; --json keeps the text as it is", async () => {
    const { docs, env } = hostileFolder();
    const add = await cli(["corpus", "add", docs, "--collection", "notes", "--shared"], env);
    expect(add.code).toBe(0);
    expectShown(add.err, "corpus add (the skipped file's name)");

    const list = await cli(["corpus", "list", "--collection", "notes"], env);
    expectShown(list.out, "corpus list");
    expect(list.out).toContain("\\u202e");
    const json = JSON.parse((await cli(["corpus", "list", "--collection", "notes", "--json"], env)).out);
    expect(json.documents[0].doc_id).toBe(`pump${OSC52}.md`);
    expect(json.documents[0].title).toContain(`${OSC52}notes${RLO}txt.exe`);

    const search = await cli(["corpus", "search", "heat pumps efficiency"], env);
    expectShown(search.out, "corpus search");
    expect(search.out).toContain("\\x9b31m");
    const searchJson = JSON.parse((await cli(["corpus", "search", "heat pumps efficiency", "--json"], env)).out);
    expect(searchJson.results[0].snippet).toContain(C1);

    const askEnv = { ...env, LOCAL_SEARCH: "only", SEARXNG_URL: `http://127.0.0.1:${closedPort()}` };
    const ask = await cli(["ask", "Why can heat pump efficiency exceed one hundred percent?"], askEnv);
    expect(ask.code).toBe(0);
    expectShown(ask.out, "ask");
    expect(ask.out).toContain("\\x9b31m");
    expect(RAW.test(ask.err)).toBe(false);
    const askJson = JSON.parse(
      (await cli(["ask", "Why can heat pump efficiency exceed one hundred percent?", "--json"], askEnv)).out,
    );
    expect(askJson.answer).toContain(C1);
  });
});
