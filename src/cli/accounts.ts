import { createAccount, type Plan, setPlan } from "../auth/accounts.ts";
import { AppError } from "../contract/errors.ts";
import type { CommandInput } from "./command.ts";
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
