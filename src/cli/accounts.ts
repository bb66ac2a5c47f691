import { createAccount, findAccountByEmail, PLANS, type Plan, setPlan } from "../auth/accounts.ts";
import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { createKey } from "../keys/api-keys.ts";
import { openStore } from "../store/open.ts";
import type { Args } from "./args.ts";

function planArg(v: string | true | undefined, fallback: Plan): Plan {
  if (v === undefined) return fallback;
  if (typeof v === "string" && (PLANS as string[]).includes(v)) return v as Plan;
  throw new AppError("invalid_request", `unknown plan ${String(v)}: use ${PLANS.join(", ")}`);
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.RQ_PASSWORD;
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) process.stderr.write("Password (8 to 256 characters): ");
  for await (const line of console) return line.trim();
  return "";
}

/** `account create EMAIL [--plan P]` and `account set-plan EMAIL PLAN`. */
export async function accountCommand(cfg: Config, args: Args): Promise<void> {
  const [, sub, email, plan] = args.positional;
  if (!email)
    throw new AppError("invalid_request", "usage: account create EMAIL [--plan PLAN] | account set-plan EMAIL PLAN");
  const store = openStore(cfg);
  try {
    if (sub === "create") {
      const password = await readPassword();
      if (password.length < 8 || password.length > 256)
        throw new AppError("invalid_request", "the password must have 8 to 256 characters");
      const acc = await createAccount(store, email, password, planArg(args.flags.plan, cfg.DEFAULT_PLAN));
      console.log(JSON.stringify(acc));
    } else if (sub === "set-plan") {
      console.log(JSON.stringify(await setPlan(store, email, planArg(plan, cfg.DEFAULT_PLAN))));
    } else {
      throw new AppError("invalid_request", `unknown account command ${sub ?? ""}: use create or set-plan`);
    }
  } finally {
    await store.close();
  }
}

/** `key create EMAIL [--name N]`: prints the full key (shown this once). */
export async function keyCommand(cfg: Config, args: Args): Promise<void> {
  const [, sub, email] = args.positional;
  if (sub !== "create" || !email) throw new AppError("invalid_request", "usage: key create EMAIL [--name NAME]");
  const store = openStore(cfg);
  try {
    const acc = await findAccountByEmail(store, email);
    if (!acc) throw new AppError("not_found", `no account with email ${email}`);
    const name = typeof args.flags.name === "string" ? args.flags.name.slice(0, 100) : null;
    console.log((await createKey(store, acc.id, name)).key);
  } finally {
    await store.close();
  }
}
