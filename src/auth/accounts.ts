import { AppError } from "../contract/errors.ts";
import type { AccountRow, AuditNote, EmailStatus, Plan, Store } from "../store/types.ts";
import { emailProblem, legacyEmail, normalizeEmail } from "./email.ts";

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

/**
 * The account an email names. An address stored before normalisation (typed in NFD, or with
 * an invisible character) is still found as typed — first, so its owner keeps signing in —
 * then the normalised form; for plain addresses the two are one lookup.
 */
async function accountRow(store: Store, email: string): Promise<AccountRow | null> {
  const typed = legacyEmail(email);
  const canonical = normalizeEmail(email);
  if (typed !== canonical) {
    const r = await store.accounts.byEmail(typed);
    if (r) return r;
  }
  return store.accounts.byEmail(canonical);
}

export async function findAccountByEmail(
  store: Store,
  email: string,
): Promise<(Account & { passwordHash: string | null; emailStatus: EmailStatus }) | null> {
  const r = await accountRow(store, email);
  return r ? { ...toAccount(r), passwordHash: r.passwordHash, emailStatus: r.emailStatus } : null;
}

/** The ids of the accounts of `emails` (in their order), and the addresses no account has. */
export async function accountIdsByEmail(
  store: Store,
  emails: readonly string[],
): Promise<{ ids: string[]; unknown: string[] }> {
  const found = await Promise.all(emails.map((e) => findAccountByEmail(store, e)));
  return { ids: found.flatMap((a) => (a ? [a.id] : [])), unknown: emails.filter((_, i) => !found[i]) };
}

export async function getAccount(store: Store, id: string): Promise<Account | null> {
  const r = await store.accounts.byId(id);
  return r ? toAccount(r) : null;
}

/** The password hash of every account (PasswordWork queues the same calls). */
export const argon2id = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

/**
 * Creates an account (sign-up, the CLI): 400 invalid_request for an email with invisible or
 * look-alike characters, 409 email_taken when the email exists. The server passes its
 * PasswordWork's `hash`, so sign-ups queue behind sign-ins, and the address's status: a
 * sign-up's address is only typed (unproven, or pending its confirmation link); the CLI's
 * is the operator's word (proven).
 */
export async function createAccount(
  store: Store,
  email: string,
  password: string | null,
  plan: Plan,
  hash: (password: string) => Promise<string> = argon2id,
  emailStatus: EmailStatus = "proven",
  audit?: (account: Account) => AuditNote,
): Promise<Account> {
  const problem = emailProblem(email);
  if (problem) throw new AppError("invalid_request", problem);
  const passwordHash = password === null ? null : await hash(password);
  const row: AccountRow = {
    id: crypto.randomUUID(),
    email: normalizeEmail(email),
    passwordHash,
    plan,
    createdAt: new Date().toISOString(),
    emailStatus,
  };
  if (!(await store.accounts.insert(row, audit?.(toAccount(row)))))
    throw new AppError("email_taken", "an account with this email already exists");
  return toAccount(row);
}

export async function setPlan(store: Store, email: string, plan: Plan): Promise<Account> {
  const found = await accountRow(store, email);
  const r = found && (await store.accounts.setPlan(found.email, plan));
  if (!r) throw new AppError("not_found", `no account with email ${normalizeEmail(email)}`);
  return toAccount(r);
}

/** Every account with its address's status, oldest first (never a password hash). */
export async function listAccounts(store: Store): Promise<(Account & { email_status: EmailStatus })[]> {
  return (await store.accounts.list()).map((r) => ({ ...toAccount(r), email_status: r.emailStatus }));
}

/**
 * The operator's word that an address belongs to its account's holder (the CLI's `account
 * confirm`): it becomes proven, so a verified identity with it joins the account instead of
 * taking it over (docs/decisions/0093-confirming-addresses-by-the-operator.md). Null when no
 * account has it.
 */
export async function proveAddress(store: Store, email: string): Promise<AccountRow | null> {
  const found = await accountRow(store, email);
  return found && (await store.accounts.setProven(found.email));
}

// A real argon2id hash of a random string: verifying against it for unknown emails makes
// "no such user" cost the same time as "wrong password" (no account enumeration by timing).
let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
  return dummyHash;
}

export const argon2Verify = (password: string, hash: string) => Bun.password.verify(password, hash).catch(() => false);

/**
 * Checks email + password: `account` is null for unknown email and wrong password alike (the
 * caller answers both the same); `known` is the account the address names, if any, for the
 * record of a failed sign-in. `passwordHash` is the hash verified: the session is made only
 * while the account still has it.
 */
export async function verifyCredentials(
  store: Store,
  email: string,
  password: string,
  verify: (password: string, hash: string) => Promise<boolean> = argon2Verify,
): Promise<{
  account: (Account & { emailStatus: EmailStatus; passwordHash: string }) | null;
  known: { id: string; email: string } | null;
}> {
  const acc = await findAccountByEmail(store, email);
  const hash = acc?.passwordHash ?? (await getDummyHash());
  const ok = await verify(password, hash);
  const known = acc ? { id: acc.id, email: acc.email } : null;
  if (!acc?.passwordHash || !ok) return { account: null, known };
  return { account: { ...acc, passwordHash: acc.passwordHash }, known };
}
