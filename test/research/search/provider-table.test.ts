import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load.ts";
import { ACADEMIC_PROVIDER_NAMES } from "../../../src/config/schema.ts";
import { PROVIDER_NAMES, SEARCH_PROVIDERS } from "../../../src/research/search/providers.ts";
import { buildSearchProviders } from "../../../src/research/search/registry.ts";

// The provider table and the names ACADEMIC_PROVIDERS accepts (src/config/schema.ts) stay one list.

const cfg = (env: Record<string, string>) => loadConfig({ ACADEMIC_PROVIDERS: "none", ...env }, "/nonexistent");
const academicRows = PROVIDER_NAMES.filter((n) => SEARCH_PROVIDERS[n].kind === "academic");

describe("the search provider table", () => {
  test("ACADEMIC_PROVIDERS accepts exactly the academic rows, each building the provider of its name", () => {
    expect([...academicRows].sort()).toEqual([...ACADEMIC_PROVIDER_NAMES].sort());
    const all = buildSearchProviders(cfg({ ACADEMIC_PROVIDERS: academicRows.join(",") }));
    expect(all.academic.map((p) => [p.name, p.kind])).toEqual(academicRows.map((n) => [n, "academic"]));
    expect(() => cfg({ ACADEMIC_PROVIDERS: "openalex,pubmed" })).toThrow("ACADEMIC_PROVIDERS");
  });

  test("every web row is built, in table order, once its setting is there", () => {
    const web = PROVIDER_NAMES.filter((n) => SEARCH_PROVIDERS[n].kind === "web");
    const on = {
      SEARXNG_URL: "http://127.0.0.1:1",
      BRAVE_API_KEY: "k",
      TAVILY_API_KEY: "k",
    };
    expect(buildSearchProviders(cfg(on)).web.map((p) => [p.name, p.kind])).toEqual(web.map((n) => [n, "web"]));
  });
});
