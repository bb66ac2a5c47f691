import { findAccountByEmail } from "../auth/accounts.ts";
import { Audit } from "../auth/audit/audit.ts";
import { createLogger, toStderr } from "../util/logger.ts";
import type { Command, CommandInput } from "./command.ts";
import { withStore } from "./with-store.ts";

/** The flags an entry's detail names: their values are names and plans, never a secret. */
const shownFlags = (input: CommandInput): string | null => {
  const flags = Object.entries(input.options)
    .filter(([name, v]) => name !== "json" && v !== undefined)
    .map(([name, v]) => (v === true ? `--${name}` : `--${name} ${[v].flat().join(",")}`));
  return flags.length ? flags.join(" ") : null;
};

/**
 * An operator's command that changed something, in the audit trail (README "The audit trail"):
 * `operator_<command>`, its target (an account's address names that account, so its Console
 * shows it too), the flags given. No client address: the operator is at the machine.
 */
export async function recordOperator(cmd: Command, input: CommandInput): Promise<void> {
  const target = cmd.audited?.(input) ?? null;
  // The row is the record (`audit` reads it); the JSON line is for the server's log collector, so
  // at a person's terminal it is written only with LOG_LEVEL=debug, on stderr (stdout is the answer).
  const audit = new Audit(input.cfg, createLogger(input.cfg.LOG_LEVEL === "debug" ? "info" : "warn", toStderr));
  await withStore(input.cfg, async (store) => {
    const account = target?.includes("@") ? await findAccountByEmail(store, target) : null;
    const action = `operator_${cmd.name.replace(/[ -]/g, "_")}` as const;
    const note = audit.note(action, null, null, { target, targetId: account?.id ?? null, detail: shownFlags(input) });
    await audit.append(store, note);
  });
}
