import { eq, sql } from "drizzle-orm";
import { prepared } from "../db/prepared.ts";
import type { Db } from "../db/open.ts";
import { accounts } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { nowIso } from "../util/time.ts";

export type Plan = "free" | "pro" | "researcher";
export const PLANS: Plan[] = ["free", "pro", "researcher"];

/** An account as the rest of the service sees it (never the password hash). */
export interface Account { id: string; email: string; plan: Plan; created_at: string }

type Row = typeof accounts.$inferSelect;
const toAccount = (r: Row): Account => ({ id: r.id, email: r.email, plan: r.plan, created_at: r.createdAt });

/** Emails compare case-insensitively; stored trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findAccountByEmail(db: Db, email: string): (Account & { passwordHash: string | null }) | null {
  const r = db.select().from(accounts).where(eq(accounts.email, normalizeEmail(email))).get();
  return r ? { ...toAccount(r), passwordHash: r.passwordHash } : null;
}

export function getAccount(db: Db, id: string): Account | null {
  const r = prepared(db, "account-by-id", (d) => d.select().from(accounts).where(eq(accounts.id, sql.placeholder("id"))).prepare()).get({ id });
  return r ? toAccount(r) : null;
}

/** Creates an account; 409 email_taken when the email exists. */
export async function createAccount(db: Db, email: string, password: string | null, plan: Plan): Promise<Account> {
  const passwordHash = password === null ? null : await Bun.password.hash(password, { algorithm: "argon2id" });
  const row: Row = { id: crypto.randomUUID(), email: normalizeEmail(email), passwordHash, plan, createdAt: nowIso() };
  try {
    db.insert(accounts).values(row).run();
  } catch (e) {
    if (String((e as Error).message).includes("UNIQUE")) throw new AppError("email_taken", "an account with this email already exists");
    throw e;
  }
  return toAccount(row);
}

export function setPlan(db: Db, email: string, plan: Plan): Account {
  const r = db.update(accounts).set({ plan }).where(eq(accounts.email, normalizeEmail(email))).returning().get();
  if (!r) throw new AppError("not_found", `no account with email ${normalizeEmail(email)}`);
  return toAccount(r);
}

// A real argon2id hash of a random string: verifying against it for unknown emails makes
// "no such user" cost the same time as "wrong password" (no account enumeration by timing).
let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
  return dummyHash;
}

/** Checks email + password; null for unknown email and wrong password alike. */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<Account | null> {
  const acc = findAccountByEmail(db, email);
  const hash = acc?.passwordHash ?? (await getDummyHash());
  const ok = await Bun.password.verify(password, hash).catch(() => false);
  if (!acc || !acc.passwordHash || !ok) return null;
  const { passwordHash: _, ...rest } = acc;
  return rest;
}
