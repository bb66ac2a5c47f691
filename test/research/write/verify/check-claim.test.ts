import { describe, expect, test } from "bun:test";
import {
  checkClaim,
  evidenceSentences,
  prepareEvidence,
  QUOTE_MAX,
  quoteOf,
  REMOVE_BELOW,
  SUPPORTED_AT,
} from "../../../../src/research/write/verify/check-claim.ts";

const BATTERY = `Solid-state batteries promise more energy in less space.
The team built a pouch cell with a sulfide electrolyte and a lithium metal anode. After 1,000 cycles, the solid-state cell retained 80 percent of its original capacity. Dendrites, thin metal filaments, grew far more slowly than in liquid cells.
Manufacturing at scale remains the main obstacle, the authors wrote. The electrolyte reacts with moisture, so every step needs a dry room.`;

const COFFEE = `Coffee plants grow best at altitudes between 1,200 and 2,000 metres. Arabica beans are picked by hand in most of Ethiopia.
Roasting turns the green beans brown and releases their oils. A light roast keeps more of the bean's acidity.`;

const check = (claim: string, text: string, language = "en") => {
  const ev = prepareEvidence(evidenceSentences(text), language);
  const c = checkClaim(claim, ev);
  return { ...c, ev, quote: quoteOf(ev, c, claim) };
};

describe("the claim check", () => {
  test("a paraphrased claim is supported, with the sentence that backs it as its quote", () => {
    const r = check("The solid-state cell kept 80 percent of its capacity after 1000 cycles.", BATTERY);
    expect(r.support).toBeGreaterThanOrEqual(SUPPORTED_AT);
    expect(r.quote).toContain("After 1,000 cycles, the solid-state cell retained 80 percent");
    expect(r.comparable).toBe(true);
  });

  test("a number the source never states sinks the claim below the removal threshold", () => {
    const r = check("The solid-state cell kept 60 percent of its capacity after 1000 cycles.", BATTERY);
    expect(r.support).toBeLessThan(REMOVE_BELOW);
    expect(r.comparable).toBe(true);
  });

  test("a claim checked against a source about something else (a swapped marker) is not supported", () => {
    const r = check("The solid-state cell kept 80 percent of its capacity after 1000 cycles.", COFFEE);
    expect(r.support).toBeLessThan(REMOVE_BELOW);
    expect(r.comparable).toBe(true);
  });

  test("a sentence quoted word for word scores 1, reference marks aside", () => {
    const r = check(
      "Dendrites, thin metal filaments, grew far more slowly than in liquid cells.",
      BATTERY.replace("cells.", "cells.[12]"),
    );
    expect(r.support).toBe(1);
    expect(r.quote).toStartWith("Dendrites, thin metal filaments");
  });

  test("German: inflected forms meet through their stems", () => {
    const text =
      "Der Bericht erschien im März. Die Bundesregierung hat im Jahr 2021 deutlich strengere Klimaziele beschlossen. Die Opposition kritisierte das Tempo.";
    const r = check("Strengere Klimaziele wurden 2021 von der Bundesregierung beschlossen.", text, "de");
    expect(r.support).toBeGreaterThanOrEqual(SUPPORTED_AT);
    expect(r.quote).toStartWith("Die Bundesregierung hat im Jahr 2021");
    expect(r.comparable).toBe(true);
  });

  test("Chinese: character bigrams match without spaces", () => {
    const text = "研究团队使用了硫化物电解质。研究人员发现，该电池在1000次循环后仍保持80%的容量。量产仍然是主要障碍。";
    const r = check("该电池在1000次循环后保留了80%的容量。", text, "zh");
    expect(r.support).toBeGreaterThanOrEqual(SUPPORTED_AT);
    expect(r.quote).toContain("1000次循环后仍保持80%的容量");
    const wrong = check("该电池在1000次循环后保留了60%的容量。", text, "zh");
    expect(wrong.support).toBeLessThan(REMOVE_BELOW);
  });

  test("a claim in another language than its source is not comparable (its score decides nothing)", () => {
    const r = check("Die Festkörperzelle behielt nach 1000 Zyklen 80 Prozent ihrer Kapazität.", BATTERY, "de");
    expect(r.comparable).toBe(false);
  });

  test("bare numbers back nothing: a claim's terms scattered thin through a run-on page, or numbers alone on their lines", () => {
    const numbers = Array.from({ length: 2000 }, (_, i) => String(i));
    for (const text of [numbers.join(" "), numbers.join("\n")])
      for (const claim of [
        "In 1990 there were 1500 of them.",
        "The town grew from 1200 to 1500 between 1980 and 1990.",
      ]) {
        const r = check(claim, text);
        expect(r.support).toBeLessThan(REMOVE_BELOW);
        expect(r.quote).toBe("");
        expect(r.comparable).toBe(true);
      }
    // The same terms standing together in a long sentence still count.
    const long = `${numbers.slice(0, 300).join(" ")} The town grew from 1200 to 1500 between 1980 and 1990. ${numbers.slice(300).join(" ")}`;
    expect(check("The town grew from 1200 to 1500 between 1980 and 1990.", long).support).toBeGreaterThanOrEqual(
      SUPPORTED_AT,
    );
  });

  test("comparability is judged on the sentences quoted, not on the language the page opens with", () => {
    const padding = "茶叶的历史非常悠久，人们在很多地方种植茶树，并且用不同的方法加工茶叶。".repeat(60);
    const r = check(
      "The solid-state cell kept 60 percent of its capacity after 1000 cycles.",
      `${padding}\n${BATTERY}`,
    );
    expect(r.quote).toContain("After 1,000 cycles");
    expect(r.comparable).toBe(true);
    expect(r.support).toBeLessThan(REMOVE_BELOW);
    // A quote in another script than the claim is still not comparable, even in a mostly English page.
    const zh = check(
      "The cell kept 80 percent after 1000 cycles.",
      `研究人员发现，该电池在1000次循环后仍保持80%的容量。\n${COFFEE}`,
    );
    expect(zh.quote).toStartWith("研究人员发现");
    expect(zh.comparable).toBe(false);
  });

  test("quotes are the source's own words, at most QUOTE_MAX characters, also from a very long sentence", () => {
    const long = `${"The committee met again and again, ".repeat(12)}and in the end it approved a budget of 4.2 billion euros for new rail lines in the north, ${"which the press covered at length, ".repeat(10)}before the summer.`;
    const r = check(
      "The committee approved 4.2 billion euros for rail lines.",
      `Intro sentence here for context. ${long}`,
    );
    expect(long.length).toBeGreaterThan(QUOTE_MAX);
    expect(r.quote.length).toBeLessThanOrEqual(QUOTE_MAX);
    expect(long).toContain(r.quote);
    expect(r.quote).toContain("4.2 billion euros");
    const two = check("After 1000 cycles the cell retained 80 percent, and dendrites grew slowly.", BATTERY);
    expect(BATTERY.replace(/\s+/g, " ")).toContain(two.quote);
  });
});
