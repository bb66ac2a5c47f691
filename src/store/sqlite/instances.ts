import type { Database } from "bun:sqlite";
import type { InstancesTable } from "../types.ts";

/**
 * The `instances` table: one lease per server process on this database file. The clock is
 * the process's: every process sharing a SQLite file runs on the same host.
 */
export function sqliteInstances(db: Database): InstancesTable {
  const extend = db.prepare("UPDATE instances SET expires_at = ?1 WHERE id = ?2 AND expires_at > ?3");
  const take = db.prepare(`INSERT INTO instances (id, started_at, expires_at) VALUES (?1, ?2, ?3)
    ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`);
  const release = db.prepare("DELETE FROM instances WHERE id = ?");
  const forget = db.prepare("DELETE FROM instances WHERE expires_at <= ?");
  return {
    renew(instanceId, leaseMs) {
      const now = new Date();
      const until = new Date(now.getTime() + leaseMs).toISOString();
      if (extend.run(until, instanceId, now.toISOString()).changes === 1) return true;
      // First call, or the lease lapsed (deleted or not yet): take it again.
      take.run(instanceId, now.toISOString(), until);
      return false;
    },
    release(instanceId) {
      release.run(instanceId);
    },
    forgetExpired: () => forget.run(new Date().toISOString()).changes,
  };
}
