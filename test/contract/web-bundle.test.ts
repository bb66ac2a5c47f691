import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * The web client imports the contract's wire types as types only: the browser bundle must
 * carry no TypeBox code (and so no schema), only what the pages themselves do.
 */
test("the browser bundle has no TypeBox in it", async () => {
  const out = await Bun.build({ entrypoints: [join(import.meta.dir, "../../src/web/index.html")], minify: false });
  expect(out.success).toBe(true);
  const scripts = out.outputs.filter((o) => o.path.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(0);
  for (const o of scripts) {
    const text = await o.text();
    expect(text).not.toMatch(/typebox|sinclair/i);
    expect(text).not.toContain("contract/");
  }
});
