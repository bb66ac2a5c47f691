import type { Config } from "../config/schema.ts";
import { type LocalRuns, openLocalRuns } from "../runs/local/local-runs.ts";
import type { Logger } from "../util/logger.ts";
import { unknownEmails } from "./collection-args.ts";
import { UsageError } from "./command.ts";

/**
 * The run service of `ask` and local `mcp`, with the accounts of `--owner EMAIL` found: their
 * runs read the shared collections and those accounts' private ones (pass `owners` to
 * `runs.local`). An address no account has is a usage error naming it, and so is --owner with
 * LOCAL_SEARCH=off, which reads no collection: nothing runs
 * (docs/decisions/0076-local-runs-read-as-named-accounts.md).
 */
export async function openLocalRunsAs(
  cfg: Config,
  logger: Logger,
  emails: readonly string[],
): Promise<LocalRuns & { owners: string[] }> {
  if (emails.length && cfg.LOCAL_SEARCH === "off")
    throw new UsageError("--owner names whose private collections to read, but LOCAL_SEARCH=off reads no collection");
  const local = await openLocalRuns(cfg, logger);
  const { ids, unknown } = await local.accountIds(emails);
  if (unknown.length) {
    await local.close();
    throw unknownEmails(unknown);
  }
  return { ...local, owners: ids };
}
