import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { docsOf, searchIn } from "../corpus/collections-helpers.ts";
import { gz, jsonl, writeTree } from "../corpus/import/import-fixtures.ts";
import { tinyPdf } from "../fixtures/tiny-pdf.ts";
import { processLog } from "../helpers/process-log.ts";
import { useLongTimeout } from "../setup.ts";
import { cli, MAIN } from "./run-cli.ts";

useLongTimeout();

const temp = () => mkdtempSync(join(tmpdir(), "rq-corpus-cli-"));
const dbEnv = () => ({ DATABASE_PATH: join(temp(), "rq.db") });
const TEXT = "Heat pumps move heat rather than make it, which is why their efficiency can exceed one hundred percent.";
const SUMMARY = /^(\S+): ([\d,]+) added, ([\d,]+) replaced, ([\d,]+) unchanged, ([\d,]+) skipped in \d+\.\d s/;

describe("corpus add, list, remove", () => {
  test("add imports a folder and a .jsonl.gz, reports problems on stderr and a summary on stdout", async () => {
    const env = dbEnv();
    const dir = writeTree(temp(), {
      "notes/heat.md": `# Heat pumps\n\n${TEXT}`,
      "notes/report.pdf": tinyPdf([TEXT], "Pump report"),
      "notes/garbage.txt": new Uint8Array([0, 159, 146, 150, 0, 1]),
    });
    const gzFile = join(dir, "more.jsonl.gz");
    writeFileSync(gzFile, gz(jsonl([{ id: "j1", title: "Boreholes", text: TEXT }]) + "{broken\n"));

    const add = await cli(["corpus", "add", join(dir, "notes"), gzFile, "--collection", "energy", "--shared"], env);
    expect(add.code).toBe(0);
    expect(add.out).toMatch(
      /^energy: 3 added, 0 replaced, 0 unchanged, 2 skipped in \d+\.\d s \(\d[\d,]* documents\/s\)\n$/,
    );
    expect(add.err).toStartWith("new collection energy: shared (every account reads it)\n");
    expect(add.err).toContain(`skipped: ${join(dir, "notes/garbage.txt")}: holds NUL bytes: binary, not text\n`);
    expect(add.err).toMatch(new RegExp(`skipped: ${gzFile}:2: not JSON \\(`));
    // That a quick import logs no progress line, only its summary, is corpus-progress.test.ts's
    // (on a clock of its own: how quick this import is depends on the machine).

    const again = await cli(["corpus", "add", join(dir, "notes"), gzFile, "--collection", "energy"], env);
    expect(again.code).toBe(0);
    expect(SUMMARY.exec(again.out)?.slice(1)).toEqual(["energy", "0", "0", "3", "2"]);

    const list = await cli(["corpus", "list"], env);
    expect(list.code).toBe(0);
    const [head, row] = list.out.trimEnd().split("\n");
    expect(head!.split(/\s{2,}/)).toEqual(["NAME", "OWNER", "VISIBILITY", "DOCUMENTS", "PASSAGES", "CHARS", "UPDATED"]);
    expect(row).toMatch(/^energy\s+-\s+shared\s+3\s+3\s+[\d,]+\s+\d{4}-\d\d-\d\d$/);

    const json = JSON.parse((await cli(["corpus", "list", "--json"], env)).out);
    expect(json.collections).toEqual([
      expect.objectContaining({
        name: "energy",
        owner: null,
        visibility: "shared",
        documents: 3,
        passages: 3,
        chars: expect.any(Number),
      }),
    ]);
    const docs = JSON.parse((await cli(["corpus", "list", "--collection", "energy", "--json"], env)).out);
    expect(docs.collection.name).toBe("energy");
    expect(docs.documents.map((d: any) => [d.doc_id, d.title, d.format, d.truncated])).toEqual([
      ["heat.md", "Heat pumps", "markdown", false],
      ["j1", "Boreholes", "jsonl", false],
      ["report.pdf", "Pump report", "pdf", false],
    ]);
    const table = await cli(["corpus", "list", "--collection", "energy"], env);
    expect(table.out.split("\n")[0]!.split(/\s{2,}/)).toEqual(["DOC_ID", "TITLE", "FORMAT", "CHARS", "TRUNCATED"]);
    const none = await cli(["corpus", "list", "--collection", "nope"], env);
    expect([none.code, none.err]).toEqual([1, "no collection named nope\n"]);
  });

  test("remove takes documents or a whole collection; what is not there is named, exit 1", async () => {
    const env = dbEnv();
    const dir = writeTree(temp(), { "a.txt": TEXT, "b.txt": `Second. ${TEXT}`, "c.txt": `Third. ${TEXT}` });
    expect((await cli(["corpus", "add", dir, "--shared"], env)).code).toBe(0); // into "default"

    const some = await cli(["corpus", "remove", "default", "a.txt", "zzz.txt", "--json"], env);
    expect(some.code).toBe(1);
    expect(JSON.parse(some.out)).toEqual({ collection: "default", removed: 1, missing: ["zzz.txt"] });
    expect(some.err).toBe("not in default: zzz.txt\n");
    const one = await cli(["corpus", "remove", "default", "b.txt"], env);
    expect([one.code, one.out]).toEqual([0, "removed 1 document from default\n"]);

    const store = openSqliteStore(env.DATABASE_PATH);
    expect((await docsOf(store, "default")).map((d) => d.docId)).toEqual(["c.txt"]);
    store.close();

    const all = await cli(["corpus", "remove", "default"], env);
    expect([all.code, all.out]).toEqual([0, "removed collection default (1 document)\n"]);
    const gone = await cli(["corpus", "remove", "default"], env);
    expect([gone.code, gone.err]).toEqual([1, "no collection named default\n"]);
    const gone2 = await cli(["corpus", "remove", "default", "c.txt"], env);
    expect([gone2.code, gone2.err]).toEqual([1, "no collection named default\n"]);
    expect((await cli(["corpus", "list"], env)).err).toBe("no collections yet (research-query corpus add PATH...)\n");
  });

  test("exit 1 when every path fails, 0 when one works; a bad name or no PATH is a usage error", async () => {
    const env = dbEnv();
    const dir = writeTree(temp(), { "a.txt": TEXT, "empty/.hidden": "x" });
    const failed = await cli(["corpus", "add", join(dir, "nope"), join(dir, "empty"), "--shared"], env);
    expect(failed.code).toBe(1);
    // The collection made for nothing is not kept.
    expect(failed.err).toContain("default not kept: nothing was imported into it");
    expect((await cli(["corpus", "list"], env)).err).toBe("no collections yet (research-query corpus add PATH...)\n");
    expect(failed.err).toContain("no such file or folder");
    expect(failed.err).toContain("empty folder: nothing to import");
    expect(failed.err).toContain(`nothing imported from: ${join(dir, "nope")}, ${join(dir, "empty")}`);
    const mixed = await cli(["corpus", "add", join(dir, "nope"), join(dir, "a.txt"), "--shared"], env);
    expect(mixed.code).toBe(0);
    expect(mixed.out).toStartWith("default: 1 added");

    const badName = await cli(["corpus", "add", dir, "--collection", "my docs", "--shared"], env);
    expect(badName.code).toBe(2);
    expect(badName.err).toContain('invalid collection name "my docs"');
    const noPath = await cli(["corpus", "add"], env);
    expect(noPath.code).toBe(2);
    expect(noPath.err).toContain("missing PATH");
    expect((await cli(["corpus", "--help"])).out).toContain(
      "corpus add PATH... [--collection NAME] [--owner EMAIL] [--shared]",
    );
    expect((await cli(["corpus", "remove", "--help"])).out).toContain(
      "corpus remove NAME [DOC_ID...] [--owner EMAIL | --shared] [--json]",
    );
  });

  test("Ctrl-C stops after the batch being written: exit 130, every document written whole and findable", async () => {
    const env = dbEnv();
    const file = join(temp(), "big.jsonl");
    const words = ["turbine", "estuary", "graphene", "aquifer", "photonic", "enzyme", "basalt", "lattice"];
    const recs = Array.from({ length: 60_000 }, (_, i) => ({
      id: `d${i}`,
      title: `Document ${i} on ${words[i % 8]}`,
      text: `${TEXT} This record mentions ${words[i % 8]} and ${words[(i * 3) % 8]}. `.repeat(3),
    }));
    writeFileSync(file, jsonl(recs));
    const p = Bun.spawn(["bun", MAIN, "corpus", "add", file, "--collection", "big", "--shared"], {
      cwd: temp(),
      env: { PATH: process.env.PATH!, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const err = processLog(p.stderr);
    await err.until("[import]");
    // Interrupt once some batches are in: the database is read beside the import (WAL).
    const db = new Database(env.DATABASE_PATH, { readonly: true });
    const count = () => db.query<{ n: number }, []>("SELECT count(*) AS n FROM corpus_documents").get()!.n;
    while (count() < 800) await Bun.sleep(20);
    db.close();
    p.kill("SIGINT");
    expect(await p.exited).toBe(130);
    const log = await err.rest();
    // Not a terminal: progress came as plain lines, a second apart.
    expect(log).toMatch(/^\[import\] [\d,]+ documents · [\d,]+\/s( · \d+ s left)? · .*big\.jsonl$/m);
    expect(log).toContain("interrupted: the documents above are complete");
    const [, , added] = SUMMARY.exec(await new Response(p.stdout).text())!;

    const store = openSqliteStore(env.DATABASE_PATH);
    const docs = await docsOf(store, "big");
    expect(docs.length).toBe(Number(added!.replaceAll(",", "")));
    expect(docs.length).toBeGreaterThanOrEqual(800);
    expect(docs.length).toBeLessThan(60_000);
    const orphans = store.raw
      .query<{ n: number }, []>(
        "SELECT count(*) AS n FROM corpus_documents d WHERE NOT EXISTS (SELECT 1 FROM corpus_passages p WHERE p.document_id = d.id)",
      )
      .get()!.n;
    expect(orphans).toBe(0);
    const last = docs.at(-1)!; // doc_id order: any of them
    const hits = await searchIn(store, last.title, { collection: "big", limit: 100 });
    expect(hits.map((h) => h.docId)).toContain(last.docId);
    store.raw.close();
  });
});
