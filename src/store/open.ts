import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import { openSqliteStore } from "./sqlite/open.ts";
import type { Store } from "./types.ts";

/**
 * The store the configuration names: SQLite at DATABASE_PATH (the only backend today). A
 * database that cannot be opened stops the start naming the variable and the path (SQLite
 * alone says only "unable to open database file").
 */
export function openStore(cfg: Pick<Config, "DATABASE_PATH">): Store {
  try {
    return openSqliteStore(cfg.DATABASE_PATH);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new AppError("config_invalid", `invalid DATABASE_PATH=${JSON.stringify(cfg.DATABASE_PATH)}: ${why}`, 500);
  }
}
