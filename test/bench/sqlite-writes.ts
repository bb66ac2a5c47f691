import { createAccount } from "../../src/auth/accounts.ts";
import { authenticateKey, createKey, type KeyIdentity } from "../../src/keys/api-keys.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";
import { everyPlan } from "../helpers/allowances.ts";

/** The SQLite work of one accepted run, in process on a WAL file: what bounds case (b). */
export async function benchSqliteWrites(runs = 3000): Promise<string> {
  const db = openSqliteStore(`/tmp/rq-sqlite-${crypto.randomUUID()}.db`);
  const acc = await createAccount(db, "w@example.com", "password!", "free");
  const key = (await createKey(db, acc.id, null, 100)).key;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const id = authenticateKey(db, key) as KeyIdentity; // synchronous on SQLite
    const runId = crypto.randomUUID();
    await db.runs.accept(
      {
        id: runId,
        accountId: acc.id,
        keyId: id.keyId,
        keyPrefix: id.prefix,
        origin: "api",
        endpoint: "/api/query",
        query: "q",
        createdAt: new Date(),
        instanceId: "bench",
      },
      everyPlan(1e9),
    );
    const events = Array.from({ length: 8 }, (_, e) => ({
      atMs: e,
      type: "progress",
      data: { stage: "planning", message: "m" },
    }));
    await db.runs.finish(
      runId,
      {
        status: "ok",
        answer: "a [S1]",
        sources: [],
        errors: [],
        writer: "extractive",
        tokensIn: 1,
        tokensOut: 1,
        latencyMs: 1,
      },
      events,
    );
  }
  const per = (performance.now() - t0) / runs;
  db.raw.close();
  return `SQLite work of one accepted run (key check, a read — last_used_at is written at most once a minute; acceptance: counter bump + run row, one commit; 8 timeline rows + finish, one commit), in process on a WAL file: ${(per * 1000).toFixed(0)} µs → at most ${(1000 / per).toFixed(0)} runs/s on one writer.`;
}

if (import.meta.main) console.log(await benchSqliteWrites());
