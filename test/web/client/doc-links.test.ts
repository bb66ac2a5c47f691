import { describe, expect, test } from "bun:test";
import {
  collectionApi,
  collectionHref,
  documentApi,
  documentHref,
  quoteOf,
  readAddress,
} from "../../../src/web/client/doc-links.ts";

/** The app's addresses of collections and documents: what is built is read back the same. */
describe("document addresses", () => {
  const read = (href: string) => {
    const u = new URL(href, "http://app.test");
    return { ...readAddress(u.pathname, u.search), quote: quoteOf(u.hash) };
  };

  test("any doc_id (slashes, dots, markup, & and #) is read back as it was", () => {
    for (const docId of [
      "reports/q3 review.md",
      "<img src=x onerror=alert(1)>.txt",
      "..",
      ".",
      "",
      "a&owner=x#y",
      "50% +1?.md",
    ]) {
      const href = documentHref({ name: "notes", docId });
      expect(href.split("/")).toHaveLength(3);
      expect(read(href)).toEqual({ collection: { name: "notes", owner: null }, docId, quote: null });
    }
  });

  test("the owner goes in the query only when given; the quote in the fragment", () => {
    expect(collectionHref({ name: "hr" })).toBe("/documents/hr");
    expect(collectionHref({ name: "hr", owner: "a+b@example.com" })).toBe("/documents/hr?owner=a%2Bb%40example.com");
    const href = documentHref({ name: "hr", owner: "a+b@example.com", docId: "x.md" }, "Stack pressure & growth…");
    expect(href).toBe(
      "/documents/hr?doc=x.md&owner=a%2Bb%40example.com#quote=Stack%20pressure%20%26%20growth%E2%80%A6",
    );
    expect(read(href)).toEqual({
      collection: { name: "hr", owner: "a+b@example.com" },
      docId: "x.md",
      quote: "Stack pressure & growth…",
    });
  });

  test("an empty owner (the operator's collection, no owner) survives the round trip and reaches the API", () => {
    const href = documentHref({ name: "manual", owner: "", docId: "welcome.md" });
    expect(href).toBe("/documents/manual?doc=welcome.md&owner=");
    expect(read(href).collection).toEqual({ name: "manual", owner: "" });
    expect(documentApi({ name: "manual", owner: "", docId: "welcome.md" })).toBe(
      "/api/console/collections/manual/documents/welcome.md?owner=",
    );
  });

  test("a collection's address has no doc_id; malformed addresses read as nothing", () => {
    expect(readAddress("/documents/notes", "")).toEqual({ collection: { name: "notes", owner: null }, docId: null });
    expect(readAddress("/documents/notes/a", "")).toBeNull();
    expect(readAddress("/documents/%E0%A4%A", "")).toBeNull();
    expect(readAddress("/documents", "")).toBeNull();
  });

  test("API paths: doc_id as one segment (%2F), owner and paging in the query", () => {
    expect(collectionApi({ name: "notes" }, "/documents")).toBe("/api/console/collections/notes/documents");
    expect(documentApi({ name: "notes", owner: "o@example.com", docId: "reports/q3 review.md" }, { from: "100" })).toBe(
      "/api/console/collections/notes/documents/reports%2Fq3%20review.md?owner=o%40example.com&from=100",
    );
  });
});
