import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freshDatabase, postgresTests } from "../../helpers/postgres.ts";

const GUARD = join(import.meta.dir, "../../../src/store/postgres/dropped-connections.ts");

/**
 * As a process of its own: an unhandled rejection ends a Bun process, and the test runner
 * would take this one as its own. The connection drop is the real client's error (a "server"
 * that accepts and closes), rejected where nobody holds it, as Bun's SQL client does when a
 * pooled connection drops under a partition (test/runs/instances/postgres-outage.e2e.test.ts).
 */
let url: string;

async function run(script: string): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn(["bun", "-e", `import { absorbDroppedConnections } from ${JSON.stringify(GUARD)};\n${script}`], {
    env: { PATH: process.env.PATH!, PG_URL: url },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

/** A query through a TCP relay to the real server, cut while the query runs: the client's own "Connection closed". */
const DROP = `
const { createServer } = await import("node:net");
const target = new URL(process.env.PG_URL);
const open = new Set();
const relay = createServer((client) => {
  const up = Bun.connect({ hostname: target.hostname, port: Number(target.port),
    socket: { data: (_s, d) => void client.write(d), close: () => void client.destroy(), error: () => void client.destroy() } });
  open.add(client);
  client.on("error", () => {});
  client.on("close", () => void up.then((u) => u.end()));
  client.on("data", (d) => void up.then((u) => u.write(d)));
});
await new Promise((r) => relay.listen(0, "127.0.0.1", r));
const via = new URL(process.env.PG_URL);
via.port = String(relay.address().port);
const sql = new Bun.SQL(via.toString(), { max: 1 });
await sql\`SELECT 1\`;
const slow = sql\`SELECT pg_sleep(5)\`.then(() => null, (e) => e);
await Bun.sleep(200);
for (const c of open) c.destroy();
const dropped = await slow;
console.log("code", dropped?.code);
relay.close();
`;

describe.skipIf(!postgresTests)("a PostgreSQL connection that drops where no caller holds it", () => {
  beforeAll(async () => {
    url = await freshDatabase();
  });

  test("is logged and the process goes on; any other unhandled rejection still ends it", async () => {
    const absorbed = await run(`absorbDroppedConnections();
${DROP}
Promise.reject(dropped);
setTimeout(() => console.log("still serving"), 50);`);
    expect(absorbed.out).toContain("code ERR_POSTGRES_CONNECTION_CLOSED");
    expect(absorbed.out).toContain("still serving");
    expect(absorbed.code).toBe(0);
    const line = JSON.parse(absorbed.err.trim().split("\n").at(-1)!) as { level: string; msg: string };
    expect(line).toMatchObject({ level: "warn", msg: "postgres_connection_dropped" });

    const other = await run(`absorbDroppedConnections();
Promise.reject(new Error("a bug of ours"));
setTimeout(() => console.log("still serving"), 50);`);
    expect(other.code).not.toBe(0);
    expect(other.err).toContain("a bug of ours");
    expect(other.out).not.toContain("still serving");
  });

  test("without the guard, the same drop ends the process (what the guard is for)", async () => {
    const bare = await run(`void absorbDroppedConnections;
${DROP}
Promise.reject(dropped);
setTimeout(() => console.log("still serving"), 50);`);
    expect(bare.out).toContain("code ERR_POSTGRES_CONNECTION_CLOSED");
    expect(bare.code).not.toBe(0);
    expect(bare.err).toContain("Connection closed");
  });
});
