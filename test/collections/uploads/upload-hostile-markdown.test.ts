import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { useLongTimeout } from "../../setup.ts";
import { call, type Member, member } from "../collection-calls.ts";
import { docOf, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

// Markdown built to make backtracking patterns rescan: unclosed openers of every inline kind, a
// heading and a table row padded with spaces, run-on sentences of abbreviations and initials.
// Each line alone held the one import worker for minutes before (0.40 MB of "[a": 60 s), and
// every other account's upload waited behind it.
const LINE = 180_000;
const line = (unit: string) => unit.repeat(Math.ceil(LINE / unit.length)).slice(0, LINE);
const HOSTILE = [
  "# Hostile notes",
  line("[a"),
  line("![a"),
  line("<a"),
  line("**a "),
  line("__a "),
  line("*a "),
  line(" _a"),
  line("~~a"),
  line("``a`"),
  `## a${" ".repeat(LINE)}b`,
  `| a${" ".repeat(LINE)}b |`,
  `a${" ".repeat(LINE)}b`,
  line("a. "),
  line("A. "),
].join("\n\n");

/** The logged duration of the import of the file of `bytes` bytes (the server logs each upload's end). */
const importMs = (logs: string[], bytes: number): number | undefined =>
  logs.map((l) => JSON.parse(l)).find((j) => j.msg === "upload_imported" && j.bytes === bytes)?.ms;

describe("a hostile Markdown file", () => {
  const srv = startUploadServer();
  let a: Member;
  let b: Member;
  beforeAll(async () => {
    [a, b] = await Promise.all([member(srv.url, "a"), member(srv.url, "b")]);
    await call(a, "POST", "/api/console/collections", { name: "mine" });
    await call(b, "POST", "/api/console/collections", { name: "theirs" });
  });
  afterAll(() => srv.stop(100));

  test("2 MB of unclosed markup imports in seconds, and another account's upload behind it is imported", async () => {
    const bytes = Buffer.byteLength(HOSTILE);
    expect(bytes).toBeGreaterThan(2_000_000);
    expect((await upload(a, "mine", [{ name: "hostile.md", data: HOSTILE }])).status).toBe(202);
    expect(
      (await upload(b, "theirs", [{ name: "after.md", data: "# After\n\nQueued behind the hostile file." }])).status,
    ).toBe(202);
    expect(docOf(await settled(b, "theirs"), "after.md")).toMatchObject({ status: "ready", title: "After" });
    expect(docOf(await settled(a, "mine"), "hostile.md")).toMatchObject({ status: "ready", title: "Hostile notes" });
    // Generous on a shared 2-core machine: about 1 s here; 2 MB took hours before (quadratic, cubic).
    expect(importMs(srv.logs, bytes)).toBeLessThan(10_000);
  });
});
