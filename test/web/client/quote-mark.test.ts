import { describe, expect, test } from "bun:test";
import { findQuote, flat } from "../../../src/web/client/quote-mark.ts";

const PASSAGES = [
  "Q3 review: solid-state cells\nSolid-state batteries are limited by dendrites that grow through the ceramic electrolyte at high current.",
  "Our Q3 cells shorted after 40 cycles once lithium filaments crossed grain boundaries in the separator.  Stack pressure above 5 MPa slowed the growth.",
];

/** Which passage an answer quoted, and the range to mark. */
describe("finding a quote in a document's passages", () => {
  test("verbatim, across line breaks and doubled spaces: the quote's own range", () => {
    const quote = "grain boundaries in the separator. Stack pressure";
    const spot = findQuote(PASSAGES, quote)!;
    expect(spot).toMatchObject({ index: 1, exact: true });
    expect(flat(PASSAGES[1]!).slice(spot.start, spot.end)).toBe(quote);
  });

  test("a snippet cut short with … and without the title is found verbatim", () => {
    const snippet = "Solid-state batteries are limited by dendrites that grow…";
    const spot = findQuote(PASSAGES, snippet)!;
    expect(spot).toMatchObject({ index: 0, exact: true });
    expect(flat(PASSAGES[0]!).slice(spot.start, spot.end)).toBe(
      "Solid-state batteries are limited by dendrites that grow",
    );
  });

  test("reworded: the passage sharing most words, marked whole; too little in common: none", () => {
    const spot = findQuote(PASSAGES, "lithium filaments crossed the grain boundaries after 40 cycles");
    expect(spot).toEqual({ index: 1, start: 0, end: flat(PASSAGES[1]!).length, exact: false });
    expect(findQuote(PASSAGES, "Tomatoes are watered on Mondays")).toBeNull();
    expect(findQuote(PASSAGES, " … ")).toBeNull();
  });
});
