import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTree } from "../corpus/import/import-fixtures.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

const TEXT = "Heat pumps move heat rather than make it, which is why their efficiency can exceed one hundred percent.";
const SECRET = "GROQ_API_KEY=gsk_live_secret_never_import_this_value";

/**
 * A folder as someone else may have filled it: a file link and a folder link out of it, links
 * inside it (to a file, to a subfolder), and two loops (to itself, to its parent).
 */
function linkedTree() {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "rq-links-")));
  writeTree(top, {
    "etc/research-query.env": SECRET,
    "private/keys.txt": `Private notes. ${SECRET}`,
    "inbox/heat.md": `# Heat pumps\n\n${TEXT}`,
    "inbox/sub/more.txt": `More on pumps. ${TEXT}`,
  });
  const docs = join(top, "inbox");
  symlinkSync(join(top, "etc/research-query.env"), join(docs, "notes.txt"));
  symlinkSync(join(top, "private"), join(docs, "private"));
  symlinkSync(join(docs, "heat.md"), join(docs, "heat-again.md"));
  symlinkSync("sub", join(docs, "sub-link"));
  symlinkSync(".", join(docs, "loop"));
  mkdirSync(join(docs, "deep"));
  symlinkSync("../..", join(docs, "deep/up"));
  return { top, docs, env: { DATABASE_PATH: join(top, "rq.db") } };
}

const docIds = async (env: Record<string, string>, collection: string) =>
  JSON.parse((await cli(["corpus", "list", "--collection", collection, "--json"], env)).out).documents.map(
    (d: { doc_id: string }) => d.doc_id,
  );

describe("corpus add and symbolic links", () => {
  test("links leading out of the folder given are skipped with a message; links inside and loops are fine", async () => {
    const { top, docs, env } = linkedTree();
    const add = await cli(["corpus", "add", docs, "--collection", "docs", "--shared"], env);
    expect(add.code).toBe(0);
    const out = "a link leading out of the folder given";
    expect(add.err).toContain(
      `skipped: ${join(docs, "notes.txt")}: ${out} (to ${join(top, "etc/research-query.env")}): not followed without --follow-links\n`,
    );
    expect(add.err).toContain(`skipped: ${join(docs, "private")}: ${out} (to ${join(top, "private")})`);
    expect(add.err).toContain(`skipped: ${join(docs, "deep/up")}: ${out} (to ${top})`);
    expect(add.out).toMatch(/^docs: 3 added, 0 replaced, 0 unchanged, 3 skipped in /);
    // Each real folder once: the loop and sub-link name folders already walked.
    expect(await docIds(env, "docs")).toEqual(["heat-again.md", "heat.md", "sub/more.txt"]);
    const search = await cli(["corpus", "search", "GROQ_API_KEY gsk_live_secret", "--json"], env);
    expect(JSON.parse(search.out).results).toEqual([]);
  });

  test("--follow-links follows them all, still visiting each real folder once", async () => {
    const { docs, env } = linkedTree();
    const add = await cli(["corpus", "add", docs, "--collection", "all", "--shared", "--follow-links"], env);
    expect(add.code).toBe(0);
    expect(add.err).not.toContain("leading out");
    const ids = await docIds(env, "all");
    expect(ids).toContain("notes.txt");
    // deep/up (the parent) comes first: private/ is walked once, by that name.
    expect(ids).toContain("deep/up/private/keys.txt");
    expect(ids.filter((id: string) => id.endsWith("keys.txt"))).toHaveLength(1);
    const help = await cli(["corpus", "add", "--help"]);
    expect(help.out).toContain("--follow-links");
  });
});
