import { describe, expect, test } from "bun:test";
import { quoteHref } from "../../../../src/web/client/claims/quote-links.ts";

/** A web source's quote opens its page at the quote (a text fragment). */
describe("links to a quote in its page", () => {
  test("a short quote whole; the page's own fragment replaced", () => {
    expect(quoteHref("https://example.org/a#top", "Stack pressure slowed the growth.")).toBe(
      "https://example.org/a#:~:text=Stack%20pressure%20slowed%20the%20growth.",
    );
  });

  test("a long quote by its first and last words; dashes and commas escaped, a closing … dropped", () => {
    const quote = "Solid-state batteries are limited by dendrites that grow through the ceramic, at high current…";
    expect(quoteHref("https://example.org/b", quote)).toBe(
      "https://example.org/b#:~:text=Solid%2Dstate%20batteries%20are%20limited,ceramic%2C%20at%20high%20current",
    );
  });

  test("no link for an address that is not http(s), or an empty quote", () => {
    expect(quoteHref("javascript:alert(1)", "x")).toBeNull();
    expect(quoteHref("local:notes/a.md", "x")).toBeNull();
    expect(quoteHref("https://example.org/", " … ")).toBeNull();
  });
});
