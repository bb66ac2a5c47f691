import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { BATTERY_NOTES, closedPort, fillCollection } from "../runs/collections-server.ts";
import { useLongTimeout } from "../setup.ts";
import { cli } from "./run-cli.ts";

useLongTimeout();

/** `ask` on an air-gapped box: it searches the collections at DATABASE_PATH and still records nothing. */
describe("ask answers from the collections", () => {
  test("--json: local sources cited; plain: collection · doc_id under each source; no run recorded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-ask-local-"));
    const db = join(dir, "rq.db");
    const store = openSqliteStore(db);
    await fillCollection(store, "notes", BATTERY_NOTES);
    store.close();
    const env = { DATABASE_PATH: db, ACADEMIC_PROVIDERS: "none", SEARXNG_URL: `http://127.0.0.1:${closedPort()}` };

    const j = await cli(["ask", "What limits solid-state batteries?", "--json"], env);
    expect(j.code).toBe(0);
    const out = JSON.parse(j.out);
    expect(out.status).toBe("ok");
    expect(out.writer).toBe("extractive");
    expect(out.answer).toContain("[S1]");
    for (const s of out.sources) expect(s).toMatchObject({ type: "local", provider: "local", collection: "notes" });
    expect(j.err).toContain("notes: read from collection");

    const plain = await cli(["ask", "What limits solid-state batteries?"], env);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("notes · reports/q3 review.md");
    expect(plain.out).not.toContain("local:notes");
    // An extractive answer says what it is: quotes, each printed once under its source, not "claims backed".
    expect(plain.out).toContain(`Quoted verbatim from ${out.sources.length} sources (no model wrote this answer).`);
    expect(plain.out).not.toContain("claims backed");
    expect(plain.out).not.toContain("backs:");
    const quotes = out.sources.flatMap((s: any) => s.evidence.map((e: any) => e.quote));
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(plain.out.split(`> "${q}"`).length - 1).toBe(1);

    const after = openSqliteStore(db);
    try {
      expect(after.raw.query<{ n: number }, []>("SELECT count(*) AS n FROM runs").get()!.n).toBe(0);
    } finally {
      after.close();
    }
  });

  test("a question the collections hold nothing on: no source, the plain sentence, no count of claims", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-ask-off-"));
    const db = join(dir, "rq.db");
    const store = openSqliteStore(db);
    await fillCollection(store, "notes", BATTERY_NOTES);
    store.close();
    const env = { DATABASE_PATH: db, ACADEMIC_PROVIDERS: "none", SEARXNG_URL: `http://127.0.0.1:${closedPort()}` };
    const plain = await cli(["ask", "What limits the range of electric scooters?"], env);
    expect(plain.code).toBe(0);
    expect(plain.out.trim()).toBe(
      "The sources found hold nothing on this question: none shares enough of its words to be quoted.",
    );
  });

  test("no database file: no collections searched and none created; LOCAL_SEARCH=off leaves them out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rq-ask-none-"));
    const db = join(dir, "missing.db");
    const env = { DATABASE_PATH: db, ACADEMIC_PROVIDERS: "none", SEARXNG_URL: `http://127.0.0.1:${closedPort()}` };
    const r = await cli(["ask", "What limits solid-state batteries?", "--json"], env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).errors[0].code).toBe("search_failed");
    expect(JSON.parse(r.out).errors[0].message).toContain("What to do: ");
    expect(existsSync(db)).toBe(false);

    const filled = join(dir, "filled.db");
    const store = openSqliteStore(filled);
    await fillCollection(store, "notes", BATTERY_NOTES);
    store.close();
    const off = await cli(["ask", "What limits solid-state batteries?", "--json"], {
      ...env,
      DATABASE_PATH: filled,
      LOCAL_SEARCH: "off",
    });
    expect(off.code).toBe(1);
    expect(JSON.parse(off.out).errors[0].code).toBe("search_failed");
  });

  test("a bad LOCAL_SEARCH stops the start naming the variable; --help lists it", async () => {
    const bad = await cli(["ask", "anything"], { LOCAL_SEARCH: "sometimes" });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("LOCAL_SEARCH");
    expect((await cli(["--help"])).out).toContain("LOCAL_SEARCH");
  });
});
