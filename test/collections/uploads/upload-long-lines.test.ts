import { afterAll, describe, expect, test } from "bun:test";
import { useLongTimeout } from "../../setup.ts";
import { call, member } from "../collection-calls.ts";
import { docOf, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

// The import worker splits an upload into passages with the same sentence split as the runs
// (docs/decisions/0115-passage-work-off-the-server-thread.md): one line of glued sentences was
// quadratic there too, and held the worker (and every upload queued behind it) for minutes.
const srv = startUploadServer();
afterAll(async () => {
  await srv.stop(100);
});

describe("an upload of one long line of glued sentences", () => {
  test("1 MB of `ab. cd ` is imported within seconds, into passages", async () => {
    const a = await member(srv.url, "a");
    await call(a, "POST", "/api/console/collections", { name: "notes" });
    const data = `Glued notes.\n${"ab. cd ".repeat(Math.floor(1_000_000 / 7))}`;
    expect((await upload(a, "notes", [{ name: "glued.txt", data }])).status).toBe(202);
    // Today's figure: about four minutes (18.5 s at 280 KB, growing with the square of the length).
    const docs = await Promise.race([settled(a, "notes"), Bun.sleep(15_000).then(() => null)]);
    expect(docs && docOf(docs, "glued.txt")).toMatchObject({ status: "ready" });
    const passages = srv.sql.query("SELECT count(*) AS n FROM corpus_passages").get() as { n: number };
    expect(passages.n).toBeGreaterThan(1_000);
  });
});
