import { createAccount, findAccountByEmail, listAccounts, type Plan, proveAddress, setPlan } from "../auth/accounts.ts";
import { Audit } from "../auth/audit/audit.ts";
import { normalizeEmail } from "../auth/email.ts";
import { removeAccount } from "../auth/leave/remove-account.ts";
import { openSpool } from "../collections/uploads/spool.ts";
import { AppError } from "../contract/errors.ts";
import { createLogger, toStderr } from "../util/logger.ts";
import { type CommandInput, EXIT, UsageError } from "./command.ts";
import { columns, shown } from "./terminal.ts";
import { withStore } from "./with-store.ts";

async function readPassword(): Promise<string> {
  const fromEnv = process.env.RQ_PASSWORD;
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) process.stderr.write("Password (8 to 256 characters): ");
  for await (const line of console) return line.trim();
  return "";
}

/** `account create EMAIL [--plan P]`: prints the account as JSON. */
export async function accountCreate({ cfg, options, args }: CommandInput): Promise<number> {
  const password = await readPassword();
  if (password.length < 8 || password.length > 256)
    throw new AppError("invalid_request", "the password must have 8 to 256 characters");
  const plan = (options.plan as Plan | undefined) ?? cfg.DEFAULT_PLAN;
  return withStore(cfg, async (store) => {
    console.log(JSON.stringify(await createAccount(store, args[0]!, password, plan)));
    return 0;
  });
}

/** `account set-plan EMAIL PLAN`: prints the account as JSON. */
export async function accountSetPlan({ cfg, args }: CommandInput): Promise<number> {
  return withStore(cfg, async (store) => {
    console.log(JSON.stringify(await setPlan(store, args[0]!, args[1] as Plan)));
    return 0;
  });
}

/** `account list [--json]`: every account with its address's status, oldest first. */
export const accountList = ({ cfg, options }: CommandInput) =>
  withStore(cfg, async (store) => {
    const accounts = await listAccounts(store);
    if (options.json) console.log(JSON.stringify({ accounts }));
    else if (!accounts.length) process.stderr.write("no accounts yet\n");
    else
      console.log(
        columns([
          ["EMAIL", "PLAN", "ADDRESS", "CREATED"],
          ...accounts.map((a) => [shown(a.email), a.plan, a.email_status, `${a.created_at.slice(0, 19)}Z`]),
        ]),
      );
    return EXIT.ok;
  });

/**
 * `account confirm EMAIL... | --all-unproven`: the operator vouches for these addresses, so a
 * verified identity with one joins its account rather than replacing its credentials
 * (docs/decisions/0093-confirming-addresses-by-the-operator.md). Prints {confirmed, unknown}.
 */
export async function accountConfirm({ cfg, options, args }: CommandInput): Promise<number> {
  const all = options["all-unproven"] === true;
  return withStore(cfg, async (store) => {
    // Pending addresses have a link on its way: --all-unproven leaves them to it; naming one confirms it.
    const emails = all
      ? (await listAccounts(store)).filter((a) => a.email_status === "unproven").map((a) => a.email)
      : args;
    const confirmed: string[] = [];
    const unknown: string[] = [];
    for (const email of emails) {
      const row = await proveAddress(store, email);
      if (row) confirmed.push(row.email);
      else unknown.push(normalizeEmail(email));
    }
    console.log(JSON.stringify({ confirmed, unknown }));
    if (unknown.length) process.stderr.write(`no account with email ${unknown.map(shown).join(", ")}\n`);
    return unknown.length ? EXIT.failure : EXIT.ok;
  });
}

/**
 * `account delete EMAIL [--yes]`: the account and everything of it (README "When a person
 * leaves"). Without --yes the operator types the address again; a stdin that is not a terminal
 * (a script) must say --yes, so nobody's account goes on a piped line.
 */
export async function accountDelete({ cfg, options, args }: CommandInput): Promise<number> {
  const email = normalizeEmail(args[0]!);
  if (options.yes !== true) {
    if (!process.stdin.isTTY)
      throw new UsageError("standard input is not a terminal: confirm with --yes to delete without typing the email");
    process.stderr.write(`Type ${shown(email)} to delete that account and everything of it: `);
    let typed = "";
    for await (const line of console) {
      typed = line.trim();
      break;
    }
    if (normalizeEmail(typed) !== email) {
      process.stderr.write("not the same address: nothing was deleted\n");
      return EXIT.failure;
    }
  }
  return withStore(cfg, async (store) => {
    const found = await findAccountByEmail(store, email);
    if (!found) throw new AppError("not_found", `no account with email ${shown(email)}`);
    const audit = new Audit(cfg, createLogger(cfg.LOG_LEVEL, toStderr));
    const spool = openSpool(cfg);
    const entry = await removeAccount(
      store,
      spool,
      found,
      cfg.SESSION_SECRET,
      audit.note("operator_account_delete", null, null),
    );
    audit.logged(entry ?? undefined);
    console.log(JSON.stringify({ deleted: found.email }));
    return EXIT.ok;
  });
}
