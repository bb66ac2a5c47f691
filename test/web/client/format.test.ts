import { expect, test } from "bun:test";
import { fmtBytes, fmtNumber, fmtSeconds, plural } from "../../../src/web/client/format.ts";

test("numbers are grouped one way: 5183 is never written beside 5,183", () => {
  expect([0, 7, 5183, 1234567, 0.5].map(fmtNumber)).toEqual(["0", "7", "5,183", "1,234,567", "0.5"]);
});

test("a count agrees with its noun: 1 call, 0 calls, 2 calls, 5,183 documents", () => {
  expect(plural(1, "call")).toBe("1 call");
  expect(plural(0, "call")).toBe("0 calls");
  expect(plural(2, "call")).toBe("2 calls");
  expect(plural(5183, "document")).toBe("5,183 documents");
  expect(plural(1, "entry", "entries")).toBe("1 entry");
  expect(plural(3, "entry", "entries")).toBe("3 entries");
});

test("sizes are binary, as the server's limits are: 50 MiB, never 52 MB; a unit never wraps away from its number", () => {
  expect(fmtBytes(0)).toBe("0\u00a0B");
  expect(fmtBytes(1023)).toBe("1,023\u00a0B");
  expect(fmtBytes(1024)).toBe("1\u00a0KiB");
  expect(fmtBytes(1536)).toBe("1.5\u00a0KiB");
  expect(fmtBytes(52_428_800)).toBe("50\u00a0MiB");
  expect(fmtBytes(104_857_600)).toBe("100\u00a0MiB");
  expect(fmtBytes(5 * 1024 ** 3)).toBe("5\u00a0GiB");
  expect(fmtBytes(1_500_000)).toBe("1.4\u00a0MiB");
});

test("seconds from milliseconds, with a fixed number of decimals", () => {
  expect(fmtSeconds(1234)).toBe("1.2\u00a0s");
  expect(fmtSeconds(1234, 2)).toBe("1.23\u00a0s");
  expect(fmtSeconds(12_345_600)).toBe("12,345.6\u00a0s");
});
