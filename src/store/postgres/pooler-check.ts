import { SQL } from "bun";

/**
 * Stops the start behind a pooler that shares server connections between clients (PgBouncer
 * in transaction or statement mode) while statements are prepared: a statement prepared on
 * one server connection is then missing, or named twice, on the next, and calls fail at
 * random under load instead of at the start (docs/decisions/0112-pgbouncer-transaction-mode.md).
 *
 * Two client connections: the first asks its server process's id; the second opens a
 * transaction (which holds a server connection until it ends) and asks; the first asks again.
 * Straight to PostgreSQL, or through a pooler in session mode, a client keeps its server
 * process. Through a transaction pooler the second client is handed the process the first
 * just released, and the first then gets another. Simple-protocol queries: nothing prepared.
 * Its own two connections, closed after: the pool may be one connection (DATABASE_POOL_MAX=1).
 */
export async function refuseSharedConnections(url: string): Promise<void> {
  const sql = new SQL(url, { max: 2, prepare: false, connectionTimeout: 10 });
  try {
    await compareBackends(sql);
  } finally {
    await sql.close();
  }
}

async function compareBackends(sql: SQL): Promise<void> {
  const a = await sql.reserve();
  try {
    const b = await sql.reserve();
    try {
      const pid = async (c: SQL) => Number((await c`SELECT pg_backend_pid() AS pid`.simple())[0].pid);
      const first = await pid(a);
      await b`BEGIN`.simple();
      const other = await pid(b);
      const again = await pid(a);
      await b`COMMIT`.simple();
      if (other === first || again !== first)
        throw new Error(
          "DATABASE_URL goes through a pooler that shares server connections between clients (PgBouncer in transaction mode): prepared statements cannot work there; set DATABASE_PREPARED_STATEMENTS=false, or connect in session mode or straight to PostgreSQL",
        );
    } finally {
      b.release();
    }
  } finally {
    a.release();
  }
}
