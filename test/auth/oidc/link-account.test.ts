import { describe, expect, test } from "bun:test";
import { createAccount } from "../../../src/auth/accounts.ts";
import type { OidcIdentity } from "../../../src/auth/oidc/client.ts";
import { accountForIdentity, parseAllowedDomains } from "../../../src/auth/oidc/link-account.ts";
import { AppError } from "../../../src/contract/errors.ts";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/open.ts";

const ISS = "https://idp.example";
const policy = { defaultPlan: "pro" as const, allowedDomains: [] as string[] };
const id = (subject: string, email?: string, emailVerified = true): OidcIdentity => ({
  issuer: ISS,
  subject,
  email,
  emailVerified,
});
const count = (db: SqliteStore, table: string) =>
  (db.raw.query(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const codeOf = async (fn: () => Promise<unknown>): Promise<string | undefined> => {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

describe("account linking", () => {
  test("first sign-in creates an account on the default plan, without a password; later ones reuse it", async () => {
    const db = openSqliteStore(":memory:");
    const a = await accountForIdentity(db, id("s1", "New@Example.com"), policy);
    expect(db.raw.query("SELECT email, plan, password_hash FROM accounts WHERE id = ?").get(a)).toEqual({
      email: "new@example.com",
      plan: "pro",
      password_hash: null,
    });
    expect(await accountForIdentity(db, id("s1", "renamed@example.com"), policy)).toBe(a);
    // The same subject at another issuer is another person.
    expect(
      await accountForIdentity(db, { ...id("s1", "other@example.com"), issuer: "https://other.example" }, policy),
    ).not.toBe(a);
  });

  test("an existing email is linked only when verified", async () => {
    const db = openSqliteStore(":memory:");
    const acc = await createAccount(db, "pat@example.com", "a-password-123", "free");
    expect(await codeOf(() => accountForIdentity(db, id("s2", "PAT@example.com", false), policy))).toBe(
      "email_not_verified",
    );
    expect(count(db, "identities")).toBe(0);
    expect(await accountForIdentity(db, id("s2", "PAT@example.com", true), policy)).toBe(acc.id);
  });

  test("no email and no link → oidc_failed", async () => {
    expect(await codeOf(() => accountForIdentity(openSqliteStore(":memory:"), id("s3"), policy))).toBe("oidc_failed");
  });

  test("nothing is half-created: a failing link rolls the new account back", async () => {
    const db = openSqliteStore(":memory:");
    db.raw.exec(
      "CREATE TEMP TRIGGER fail_link BEFORE INSERT ON identities BEGIN SELECT RAISE(ABORT, 'link failed'); END;",
    );
    expect(accountForIdentity(db, id("s4", "half@example.com"), policy)).rejects.toThrow("link failed");
    expect(count(db, "accounts")).toBe(0);
  });

  test("allowed domains: exact match on a verified email, case-insensitive; list parsing", async () => {
    const db = openSqliteStore(":memory:");
    const p = { ...policy, allowedDomains: parseAllowedDomains(" Acme.com, @acme.org ,, ") };
    expect(p.allowedDomains).toEqual(["acme.com", "acme.org"]);
    expect(await codeOf(() => accountForIdentity(db, id("d1", "a@ACME.com"), p))).toBeUndefined();
    expect(await codeOf(() => accountForIdentity(db, id("d2", "b@acme.org"), p))).toBeUndefined();
    for (const bad of [
      id("d3", "c@x.acme.com"),
      id("d4", "d@evil-acme.com"),
      id("d5", "e@acme.com", false),
      id("d6"),
      id("d7", "f@acme.com@evil.com"),
    ]) {
      expect(await codeOf(() => accountForIdentity(db, bad, p))).toBe("domain_not_allowed");
    }
    expect(count(db, "accounts")).toBe(2);
  });
  test("a subject no database can hold (NUL, unpaired surrogate) is refused alike on every backend, nothing created", async () => {
    const db = openSqliteStore(":memory:");
    expect(await codeOf(() => accountForIdentity(db, id("s\u0000x", "nul@example.com"), policy))).toBe("oidc_failed");
    expect(await codeOf(() => accountForIdentity(db, id("s\ud800", "lone@example.com"), policy))).toBe("oidc_failed");
    expect([count(db, "accounts"), count(db, "identities")]).toEqual([0, 0]);
  });
});
