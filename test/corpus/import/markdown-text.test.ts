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

  test("inline markup: links, images, references, tags, code spans, emphasis and strikes keep their text", () => {
    const line = [
      "![alt](a.png) [link](https://x.org) [ref][r] <b>bold</b> **strong** __also__",
      "*em* _em_ ~~gone~~ ``code with ` inside`` an ``unclosed run, a [bracket and **stars",
    ].join(" ");
    expect(markdownText(line).text).toBe(
      "alt link ref bold strong also em em gone code with ` inside an ``unclosed run, a [bracket and **stars",
    );
  });

  test("headings lose closing hashes and padding; table rows their pipes; lines their trailing blanks", () => {
    const md = `## Budget ##${" ".repeat(50)}\n\n| a | b |\n|---|:---:|\n| 1 | 2 |   \nend\t \t`;
    expect(markdownText(md)).toEqual({ title: "Budget", text: "Budget\n\n a  b\n 1  2\nend" });
  });
});
