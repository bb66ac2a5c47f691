import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { searchCorpus } from "../../../src/corpus/search/search-corpus.ts";
import { tinyPdf } from "../../fixtures/tiny-pdf.ts";
import { docsOf, searchIn } from "../collections-helpers.ts";
import { gz, importer, jsonl, tempDir, writeTree } from "./import-fixtures.ts";

const PROSE =
  "Sodium-ion cells trade some energy density for cheaper and more abundant materials, which matters for grid storage.";

const HTML = `<!doctype html><html><head><meta charset="windows-1252"><title>Grid storage notes</title></head>
<body><nav>Home | About | Contact</nav><article><h1>Grid storage notes</h1>
<p>${PROSE}</p><p>Caf\xe9 owners in the valley also asked about flywheels, which store energy as rotation and last for decades.</p>
</article><footer>Copyright 2026</footer></body></html>`;

const MD = `---
layout: post
---
# Flywheel storage

Flywheels **store** energy as _rotation_; see [the survey](https://example.org/survey).

- spins in a vacuum
- lasts for decades

\`\`\`
rpm = 40000
\`\`\`

## Costs

| part | share |
|------|-------|
| rotor | 40% |
`;

describe("importPaths reads each format", () => {
  test("a folder: PDF, HTML, Markdown and text files are documents known by their relative path", async () => {
    const dir = writeTree(tempDir(), {
      "reports/cells.pdf": tinyPdf(["Sodium-ion cells for grid storage.", PROSE], "Sodium-ion cells"),
      "web/notes.html": Buffer.from(HTML, "latin1"),
      "notes/flywheels.md": MD,
      "plain.txt": `Pumped hydro basics\n\n${PROSE.replace("Sodium-ion cells", "Pumped hydro")}\n`,
      "images/logo.png": new Uint8Array([137, 80, 78, 71]),
      ".git/config": "[core]",
    });
    const { store, problems, run } = importer();
    const s = await run([dir]);
    expect(s).toMatchObject({ added: 4, replaced: 0, unchanged: 0, skipped: 1, failedPaths: [], interrupted: false });
    expect(problems).toEqual([
      expect.objectContaining({
        path: join(dir, "images/logo.png"),
        skipped: true,
        message: expect.stringContaining("not a format"),
      }),
    ]);
    const docs = await docsOf(store, "test");
    expect(docs.map((d) => [d.docId, d.format, d.title])).toEqual([
      ["notes/flywheels.md", "markdown", "Flywheel storage"],
      ["plain.txt", "text", "Pumped hydro basics"],
      ["reports/cells.pdf", "pdf", "Sodium-ion cells"],
      ["web/notes.html", "html", "Grid storage notes"],
    ]);
    expect(docs.every((d) => d.path?.startsWith(dir) && !d.truncated && d.url === null)).toBe(true);

    // Each is findable through the one search, by words only its text holds.
    const top = async (q: string) => (await searchIn(store, q, { collection: "test", limit: 1 }))[0]?.docId;
    expect(await top("abundant materials sodium")).toBe("reports/cells.pdf");
    expect(await top("café valley owners")).toBe("web/notes.html"); // windows-1252 decoded by its <meta>
    expect(await top("vacuum decades rotor")).toBe("notes/flywheels.md");
    expect(await top("pumped hydro")).toBe("plain.txt");
  });

  test("Markdown loses its markup but keeps headings as lines", async () => {
    const dir = writeTree(tempDir(), { "f.md": MD });
    const { store, run } = importer();
    await run([join(dir, "f.md")]);
    const [doc] = await docsOf(store, "test");
    expect(doc!.docId).toBe("f.md"); // a file given directly: its base name
    const text = (await store.corpus.bestPassages(doc!.id, ["nothing"], 10)).map((p) => p.text).join("\n");
    expect(text).toContain("Flywheels store energy as rotation; see the survey.");
    expect(text).toContain("spins in a vacuum");
    expect(text).toContain("Costs");
    expect(text).toContain("rpm = 40000");
    for (const markup of ["**", "](", "# ", "---", "layout:", "|"]) expect(text).not.toContain(markup);
  });

  test("JSONL and JSONL.gz: one document per line with its own id, title and url; BEIR's _id too", async () => {
    const records = [
      { id: "d1", title: "Solid electrolytes", text: PROSE, url: "https://example.org/d1" },
      { _id: 42, title: "", text: "Lithium dendrites pierce separators when cells charge too fast in the cold." },
    ];
    const dir = writeTree(tempDir(), {
      "a.jsonl": jsonl(records),
      "b.jsonl.gz": gz(jsonl([{ id: "g1", title: "Compressed", text: "Gzip streams are read line by line." }])),
    });
    const { store, problems, run } = importer();
    const s = await run([join(dir, "a.jsonl"), join(dir, "b.jsonl.gz")]);
    expect(s).toMatchObject({ added: 3, skipped: 0 });
    expect(problems).toEqual([]);
    const docs = await docsOf(store, "test");
    expect(docs.map((d) => [d.docId, d.title, d.url, d.format])).toEqual([
      ["42", "42", null, "jsonl"],
      ["d1", "Solid electrolytes", "https://example.org/d1", "jsonl"],
      ["g1", "Compressed", null, "jsonl"],
    ]);
    // A short text (under splitPassages' 40-character floor) is still one passage, so it is findable.
    expect((await searchCorpus(store, "gzip streams", { collections: null, limit: 5 })).map((h) => h.docId)).toEqual([
      "g1",
    ]);
  });
});
