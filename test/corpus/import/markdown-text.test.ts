import { describe, expect, test } from "bun:test";
import { markdownText } from "../../../src/corpus/import/markdown-text.ts";

describe("markdownText", () => {
  test("a setext heading is the title; rules, quotes, lists and reference definitions lose their marks", () => {
    const md = [
      "Field notes",
      "===========",
      "",
      "> Quoted *wisdom* with `code` and ~~struck~~ text.",
      "",
      "***",
      "",
      "1. first step",
      "2) second step",
      "- [x] done item",
      "",
      "See [the log][log] and snake_case_names stay.",
      "",
      "[log]: https://example.org/log",
    ].join("\n");
    expect(markdownText(md)).toEqual({
      title: "Field notes",
      text: [
        "Field notes",
        "",
        "Quoted wisdom with code and struck text.",
        "",
        "first step",
        "second step",
        "done item",
        "",
        "See the log and snake_case_names stay.",
      ].join("\n"),
    });
  });

  test("front matter gives the title when no heading does; without either there is none", () => {
    expect(markdownText('---\ntitle: "Budget 2027"\ntags: [x]\n---\nPlain body.')).toEqual({
      title: "Budget 2027",
      text: "Plain body.",
    });
    expect(markdownText("Just a paragraph.\n")).toEqual({ title: null, text: "Just a paragraph." });
  });
});
