import type { SQL } from "bun";
import type { ApiKeysTable, KeyCheck, KeyRow } from "../types.ts";
import { lockAccount } from "./account-lock.ts";
import { writeAudit } from "./audit-events.ts";

/**
 * The `api_keys` table. `seq` (insertion order) breaks ties between keys created in the
 * same millisecond, as rowid does on SQLite, so "newest first" means the same on both.
 */
export function pgApiKeys(sql: SQL): ApiKeysTable {
  const owned = async (keyId: string, accountId: string) => {
    const [r] = await sql<KeyRow[]>`SELECT id, account_id AS "accountId", name, prefix, key_hash AS "keyHash", status,
      created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
      FROM api_keys WHERE id = ${keyId} AND account_id = ${accountId}`;
    return r ?? null;
  };
  return {
    async insert(r) {
      await sql`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, status, created_at, last_used_at, revoked_at)
        VALUES (${r.id}, ${r.accountId}, ${r.name}, ${r.prefix}, ${r.keyHash}, ${r.status}, ${r.createdAt},
          ${r.lastUsedAt}, ${r.revokedAt})`;
    },
    // An account's creations queue on a transaction lock (never a session one: PgBouncer), so
    // two instances' concurrent creations cannot both see room under the cap; the account's row
    // is held first, as in SessionsTable.insert, so a takeover cannot end the session between check and write.
    insertWithin: (r, max, whileSession, note) =>
      sql.begin(async (tx) => {
        if (whileSession) {
          await lockAccount(tx, r.accountId);
          const [live] = await tx`SELECT 1 AS ok FROM sessions
            WHERE token_hash = ${whileSession.tokenHash} AND account_id = ${r.accountId} AND expires_at > ${whileSession.now}`;
          if (!live) return "no_session" as const;
        }
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`keys:${r.accountId}`}))`;
        const inserted = await tx`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, status, created_at,
            last_used_at, revoked_at)
          SELECT ${r.id}, ${r.accountId}, ${r.name}, ${r.prefix}, ${r.keyHash}, ${r.status}, ${r.createdAt},
            ${r.lastUsedAt}, ${r.revokedAt}
          WHERE (SELECT count(*) FROM api_keys WHERE account_id = ${r.accountId} AND status = 'active') < ${max}
          RETURNING id`;
        if (inserted.length > 0 && note) await writeAudit(tx, note);
        return inserted.length > 0 ? ("inserted" as const) : ("limit" as const);
      }),
    listByAccount: async (accountId) => [
      ...(await sql<KeyRow[]>`SELECT id, account_id AS "accountId", name, prefix, key_hash AS "keyHash", status,
        created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
        FROM api_keys WHERE account_id = ${accountId} ORDER BY created_at DESC, seq DESC`),
    ],
    // As on SQLite: the cursor is a key's (created_at, seq) place in the order.
    pageByAccount: async (accountId, from, limit) => [
      ...(await sql<KeyRow[]>`SELECT id, account_id AS "accountId", name, prefix, key_hash AS "keyHash", status,
        created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
        FROM api_keys WHERE account_id = ${accountId}
          AND (${from}::text IS NULL OR (created_at, seq) <=
            (SELECT created_at, seq FROM api_keys WHERE id = ${from}::text AND account_id = ${accountId}))
        ORDER BY created_at DESC, seq DESC LIMIT ${limit}`),
    ],
    async revoke(accountId, keyId, at, note) {
      await sql.begin(async (tx) => {
        const done = await tx`UPDATE api_keys SET status = 'revoked', revoked_at = ${at}
          WHERE id = ${keyId} AND account_id = ${accountId} AND status = 'active'`;
        if (done.count > 0 && note) await writeAudit(tx, note);
      });
      return owned(keyId, accountId);
    },
    async accountOf(keyId) {
      const [r] = await sql`SELECT account_id FROM api_keys WHERE id = ${keyId}`;
      return (r?.account_id as string | undefined) ?? null;
    },
    // Every call and every refusal runs this: only the columns the check needs.
    async byHash(hash) {
      const [r] = await sql<
        KeyCheck[]
      >`SELECT id, account_id AS "accountId", prefix, status, last_used_at AS "lastUsedAt"
        FROM api_keys WHERE key_hash = ${hash}`;
      return r ?? null;
    },
    async touch(keyId, at) {
      await sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${keyId}`;
    },
  };
}
