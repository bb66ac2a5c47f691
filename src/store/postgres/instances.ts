import type { SQL } from "bun";
import type { InstancesTable } from "../types.ts";

/**
 * The `instances` table: one lease per server process on this database. Expiry is judged by
 * the database's now(), never a host's clock: instances on hosts whose clocks differ still
 * agree on which leases are live (runs.markInterrupted reads the same clock).
 */
export function pgInstances(sql: SQL): InstancesTable {
  return {
    async renew(instanceId, leaseMs) {
      const secs = leaseMs / 1000;
      const extended = await sql`UPDATE instances SET expires_at = now() + make_interval(secs => ${secs})
        WHERE id = ${instanceId} AND expires_at > now()`;
      if (extended.count === 1) return true;
      // First call, or the lease lapsed (deleted or not yet): take it again.
      await sql`INSERT INTO instances (id, started_at, expires_at) VALUES (${instanceId}, now(), now() + make_interval(secs => ${secs}))
        ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`;
      return false;
    },
    async release(instanceId) {
      await sql`DELETE FROM instances WHERE id = ${instanceId}`;
    },
    forgetExpired: async () => (await sql`DELETE FROM instances WHERE expires_at <= now()`).count,
  };
}
