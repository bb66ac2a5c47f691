import { describe, expect, test } from "bun:test";
import { splitPassages, splitSentences, wholeSentences } from "../../src/text/passages.ts";
import { textBlocks } from "../../src/text/text-blocks.ts";

const MEMO = `Coating trial
The yield rose from 61 percent to 74 percent once the cathode
particles were coated with alumina, and the cost per kilo-
gram of cathode fell by a third. The well-known drop in capacity
after ninety-
two cycles did not appear.
Results
The coating step added two hours per batch.`;

describe("wrapped lines", () => {
  test("a paragraph's soft line breaks are joined, a typesetter's hyphen undone, a compound's kept", () => {
    expect(textBlocks(MEMO)).toEqual([
      { kind: "heading", text: "Coating trial" },
      {
        kind: "prose",
        text: "The yield rose from 61 percent to 74 percent once the cathode particles were coated with alumina, and the cost per kilogram of cathode fell by a third. The well-known drop in capacity after ninety-two cycles did not appear.",
      },
      { kind: "heading", text: "Results" },
      { kind: "prose", text: "The coating step added two hours per batch." },
    ]);
  });

  test("a hyphen is kept when the text writes the compound so elsewhere, or the next part is in capitals", () => {
    const t =
      "Cells made state-of-the-art storage cheap. The state-\nof-the-art cells and the COVID-\n19 wards stayed cold.";
    expect(splitSentences(t)).toEqual([
      "Cells made state-of-the-art storage cheap.",
      "The state-of-the-art cells and the COVID-19 wards stayed cold.",
    ]);
    expect(splitSentences("The price per kilo-\ngram fell.")).toEqual(["The price per kilogram fell."]);
  });

  test("a sentence broken by a page (a blank line, then lower case) goes on; a paragraph break does not", () => {
    expect(splitSentences("The cost per\n\nkilogram fell by a third.\n\nA new paragraph starts here.")).toEqual([
      "The cost per kilogram fell by a third.",
      "A new paragraph starts here.",
    ]);
  });

  test("a line left open that the next does not carry on ends its block (a web page's caption, one line per block)", () => {
    const page =
      "Figure 2 shows the capacity that the coated cells kept over five hundred cycles of fast charging at forty degrees\nThe coating step added two hours per batch. It raised the cost per kilogram of cathode by three percent, which the longer life of the cells more than repaid, the team wrote in its report.";
    expect(wholeSentences(page)[0]).toBe("The coating step added two hours per batch.");
  });

  test("a line in lower case after a sentence's end keeps the line break as its stop; after an abbreviation it goes on", () => {
    expect(splitSentences("Notes on the coated cells.\nab. cd ab. cd ab. cd")[0]).toBe("Notes on the coated cells.");
    expect(splitSentences("The cells were cycled at 40 degrees, e.g.\nthe fast-charge tests.")).toEqual([
      "The cells were cycled at 40 degrees, e.g. the fast-charge tests.",
    ]);
  });

  test("text stored with hard line breaks by an earlier import reads as sentences", () => {
    const stored = "The yield rose\nfrom 61 percent to 74 percent once the cathode particles were\ncoated.";
    expect(splitSentences(stored)).toEqual([
      "The yield rose from 61 percent to 74 percent once the cathode particles were coated.",
    ]);
  });
});

describe("what is never a sentence", () => {
  const DOC = `Query notes

Use the clause below to pick the finished runs of the week.

SELECT id, status FROM runs
WHERE status = 'done'
ORDER BY id;

Run  Yield
A  61 percent
B  74 percent`;

  test("headings, code and tables are blocks of their own; whole sentences come from prose only", () => {
    expect(textBlocks(DOC).map((b) => b.kind)).toEqual(["heading", "prose", "code", "table"]);
    expect(wholeSentences(DOC)).toEqual(["Use the clause below to pick the finished runs of the week."]);
  });

  test("a piece begun half-way or left open at a passage's edge is not a whole sentence; nor is a question", () => {
    expect(wholeSentences("percent once the particles were coated. The cost per kilogram of")).toEqual([]);
    expect(wholeSentences("Did the yield of the coated cells rise? It rose to 74 percent.")).toEqual([
      "It rose to 74 percent.",
    ]);
  });

  test("passages keep code lines on their lines and blocks a blank line apart", () => {
    const [p] = splitPassages(DOC);
    expect(p).toContain("SELECT id, status FROM runs\nWHERE status = 'done'\nORDER BY id;");
    expect(p).toStartWith("Query notes\n\nUse the clause below");
    expect(textBlocks(p!).map((b) => b.kind)).toEqual(["heading", "prose", "code", "table"]);
  });
});

describe("sentences that begin with a name written in lower case", () => {
  test("mTOR, p53, siRNA, c-Myc and α-synuclein begin sentences; a lower-case word still begins none", () => {
    const text =
      "The cells were grown for ten days in the usual medium. mTOR inhibition rescued them in most of the mice we tested. " +
      "p53 was raised in every treated sample that we measured. siRNA against the gene lowered its expression by half. " +
      "c-Myc rose in the treated group within the first two days. α-synuclein gathered in the neurons of older animals.";
    const got = wholeSentences(text);
    for (const start of ["mTOR inhibition", "p53 was", "siRNA against", "c-Myc rose", "α-synuclein gathered"])
      expect(got.some((s) => s.startsWith(start))).toBe(true);
    expect(wholeSentences("and so the yield rose from 61 percent to 74 percent over the year.")).toEqual([]);
  });
});
