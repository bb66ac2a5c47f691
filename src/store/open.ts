import type { Config } from "../config/schema.ts";
import { openSqliteStore } from "./sqlite/open.ts";
import type { Store } from "./types.ts";

/** The store the configuration names: SQLite at DATABASE_PATH (the only backend today). */
export function openStore(cfg: Pick<Config, "DATABASE_PATH">): Store {
  return openSqliteStore(cfg.DATABASE_PATH);
}
