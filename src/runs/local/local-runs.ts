import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { accountIdsByEmail } from "../../auth/accounts.ts";
import type { Config } from "../../config/schema.ts";
import { buildEngine } from "../../research/build-engine.ts";
import type { Engine } from "../../research/types.ts";
import { openStore } from "../../store/open.ts";
import type { Store } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import { createRunService, type RunService } from "../service.ts";

// Runs of this machine's own record nothing: the run service is given no store to write to.
const noStore = new Proxy(
  {},
  {
    get: () => {
      throw new Error("local runs record nothing");
    },
  },
) as Store;

/**
 * The collections at DATABASE_URL or DATABASE_PATH, for the `local` provider only: the run
 * itself is still recorded nowhere. No database file, no collections (and no file is created).
 */
async function collectionsStore(cfg: Config): Promise<Store | undefined> {
  if (cfg.LOCAL_SEARCH === "off") return;
  if (!cfg.DATABASE_URL && (cfg.DATABASE_PATH === ":memory:" || !existsSync(cfg.DATABASE_PATH))) return;
  return await openStore(cfg);
}

export interface LocalRuns {
  runs: RunService;
  /** The engine the runs use (its start-up warnings: src/research/setup-warnings.ts). */
  engine: Engine;
  /**
   * The account ids of these emails, whose private collections a run may then read (pass them
   * to `runs.local`); `unknown` lists the emails no account has (all of them without a database).
   */
  accountIds(emails: readonly string[]): Promise<{ ids: string[]; unknown: string[] }>;
  /** Closes the collections' database, if one was opened. */
  close(): Promise<void>;
  /**
   * The database file looked for and not found (absolute), when the collections would be
   * searched but none could be opened: an MCP client starts `mcp` in its own folder, where a
   * relative DATABASE_PATH names nothing.
   */
  missingDatabase?: string;
}

/**
 * The run service of an entry that runs the engine in this process with this machine's
 * configuration and no account (`ask`, `mcp` without --server): no allowance, nothing
 * recorded, the collections at DATABASE_PATH searched when there are any.
 */
export async function openLocalRuns(cfg: Config, logger: Logger): Promise<LocalRuns> {
  const collections = await collectionsStore(cfg);
  const engine = buildEngine(cfg, logger, undefined, undefined, collections);
  const missing = !collections && cfg.LOCAL_SEARCH !== "off" && !cfg.DATABASE_URL;
  return {
    ...(missing ? { missingDatabase: resolve(cfg.DATABASE_PATH) } : {}),
    runs: createRunService({ store: noStore, engine, config: cfg, logger }),
    engine,
    // No database, no accounts: every address is unknown.
    accountIds: async (emails) =>
      collections ? await accountIdsByEmail(collections, emails) : { ids: [], unknown: [...emails] },
    close: async () => {
      await collections?.close();
    },
  };
}
