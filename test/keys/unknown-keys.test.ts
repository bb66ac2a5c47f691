import { describe, expect, test } from "bun:test";
import { createAccount } from "../../src/auth/accounts.ts";
import type { AppError } from "../../src/contract/errors.ts";
import { authenticateKey, createKey, revokeKey } from "../../src/keys/api-keys.ts";
import { UnknownKeys } from "../../src/keys/unknown-keys.ts";
import { openSqliteStore } from "../../src/store/sqlite/open.ts";

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as AppError).code;
  }
};

describe("unknown-key memory", () => {
  test("remembers absent hashes for its TTL only, and never more than its cap (oldest out)", () => {
    const u = new UnknownKeys(1000, 4);
    u.add("a", 0);
    u.add("b", 0);
    u.add("c", 0);
    u.add("d", 0);
    expect(u.has("a", 999)).toBe(true);
    expect(u.size).toBe(4);
    u.add("e", 0);
    expect(u.size).toBe(3);
    expect(u.has("a", 10)).toBe(false);
    expect(u.has("e", 10)).toBe(true);
    expect(u.has("c", 999)).toBe(true);
    expect(u.has("c", 1000)).toBe(false);
  });

  test("a flood of distinct bad keys leaves the memory at its cap", () => {
    const u = new UnknownKeys(60_000, 100);
    for (let i = 0; i < 10_000; i++) u.add(`h${i}`);
    expect(u.size).toBe(100);
  });

  test("valid and revoked keys are never remembered: revocation is seen on the very next call", async () => {
    const db = openSqliteStore(":memory:");
    const acc = await createAccount(db, "u@example.com", "a long password", "free");
    const k = await createKey(db, acc.id, null, 100);
    const bad = "rq-" + "B".repeat(32);
    expect(codeOf(() => authenticateKey(db, bad))).toBe("invalid_api_key");
    expect(codeOf(() => authenticateKey(db, bad))).toBe("invalid_api_key");
    expect(codeOf(() => authenticateKey(db, k.key))).toBe("ok");
    // Revoked behind our back (as the CLI does from another process): no cache hides it.
    db.raw.run("UPDATE api_keys SET status = 'revoked' WHERE id = ?", [k.id]);
    expect(codeOf(() => authenticateKey(db, k.key))).toBe("key_inactive");
    await revokeKey(db, acc.id, k.id);
    expect(codeOf(() => authenticateKey(db, k.key))).toBe("key_inactive");
    db.raw.close();
  });
});
