import { AppError } from "../contract/errors.ts";
import type { AccountRow, Plan, Store } from "../store/types.ts";

export type { Plan } from "../store/types.ts";
export const PLANS: Plan[] = ["free", "pro", "researcher"];

/** An account as the rest of the service sees it (never the password hash). */
export interface Account {
  id: string;
  email: string;
  plan: Plan;
  created_at: string;
}

export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  plan: r.plan,
  created_at: r.createdAt,
});

/** Emails compare case-insensitively; stored trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export async function findAccountByEmail(
  store: Store,
  email: string,
): Promise<(Account & { passwordHash: string | null }) | null> {
  const r = await store.accounts.byEmail(normalizeEmail(email));
  return r ? { ...toAccount(r), passwordHash: r.passwordHash } : null;
}

export async function getAccount(store: Store, id: string): Promise<Account | null> {
  const r = await store.accounts.byId(id);
  return r ? toAccount(r) : null;
}

/** Creates an account; 409 email_taken when the email exists. */
export async function createAccount(
  store: Store,
  email: string,
  password: string | null,
  plan: Plan,
): Promise<Account> {
  const passwordHash = password === null ? null : await Bun.password.hash(password, { algorithm: "argon2id" });
  const row: AccountRow = {
    id: crypto.randomUUID(),
    email: normalizeEmail(email),
    passwordHash,
    plan,
    createdAt: new Date().toISOString(),
  };
  if (!(await store.accounts.insert(row)))
    throw new AppError("email_taken", "an account with this email already exists");
  return toAccount(row);
}

export async function setPlan(store: Store, email: string, plan: Plan): Promise<Account> {
  const r = await store.accounts.setPlan(normalizeEmail(email), plan);
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
export async function verifyCredentials(store: Store, email: string, password: string): Promise<Account | null> {
  const acc = await findAccountByEmail(store, email);
  const hash = acc?.passwordHash ?? (await getDummyHash());
  const ok = await Bun.password.verify(password, hash).catch(() => false);
  if (!acc?.passwordHash || !ok) return null;
  const { passwordHash: _, ...rest } = acc;
  return rest;
}
