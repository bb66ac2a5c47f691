import { describe, expect, test } from "bun:test";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../src/contract/json-walk.ts";
import { storable, unstorableAt } from "../../src/contract/storable-text.ts";

/** `levels` arrays, each holding the next, `inner` at the bottom. */
function nested(levels: number, inner: unknown): unknown {
  let v = inner;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

// The walkers never recurse: depth is bounded only by memory, not by the call stack (which
// overflowed near 30,000 levels when each level was a call).
describe("walking JSON without recursion", () => {
  const DEEP = 200_000;

  test("unstorableAt names the first unstorable string, in document order, at any depth", () => {
    expect(unstorableAt({ a: ["ok", "x\0"], b: "y\0" })).toBe("a[1]");
    expect(unstorableAt({ f: { ok: 1, "k\ud800": 2 } })).toBe("a key of f");
    expect(unstorableAt({ "k\0": 1 })).toBe("a key");
    expect(unstorableAt({ q: "fine" }, "args")).toBeNull();
    expect(unstorableAt("\0")).toBe("the value");
    expect(unstorableAt({ items: [{ title: "t\0" }] }, "args")).toBe("args.items[0].title");
    const found = unstorableAt({ pad: nested(DEEP, "\0") });
    expect(found).toBe(`pad${"[0]".repeat(DEEP)}`);
  });

  test("storable cleans at any depth, copying only the containers on the way to a change", () => {
    const kept = { a: [1, "clean"], b: { c: "clean" } };
    expect(storable(kept)).toBe(kept);
    const dirty = { a: kept.a, b: { c: "x\0y", d: ["\ud800"] } };
    const out = storable(dirty) as typeof dirty;
    expect(out).toEqual({ a: [1, "clean"], b: { c: "xy", d: ["\ufffd"] } });
    expect(out.a).toBe(kept.a);
    let bottom = storable(nested(DEEP, "n\0ul"));
    for (let i = 0; i < DEEP; i++) bottom = (bottom as unknown[])[0];
    expect(bottom).toBe("nul");
  });

  test("nestedDeeperThan counts every container level, the outermost too", () => {
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH - 1, []))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH, []))).toBe(true);
    expect(nestedDeeperThan({ a: nested(MAX_JSON_DEPTH - 2, { b: 1 }) })).toBe(false);
    expect(nestedDeeperThan(nested(DEEP, 1))).toBe(true);
  });
});
