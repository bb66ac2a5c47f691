import type { Config } from "../config/schema.ts";
import { AppError } from "../contract/errors.ts";
import type { Logger } from "../util/logger.ts";
import { redactUrl, redactUrlIn } from "../util/redact-url.ts";
import { openPostgresStore } from "./postgres/open.ts";
import { openSqliteStore } from "./sqlite/open.ts";
import type { Store } from "./types.ts";

/**
 * The store the configuration names: PostgreSQL at DATABASE_URL when it is set, else SQLite
 * at DATABASE_PATH. A database that cannot be opened stops the start naming the variable
 * and where it points (SQLite alone says only "unable to open database file"), never a
 * password.
 */
export async function openStore(
  cfg: Pick<Config, "DATABASE_PATH" | "DATABASE_URL"> &
    Partial<Pick<Config, "DATABASE_POOL_MAX" | "DATABASE_PREPARED_STATEMENTS">>,
  o: { checkpointThread?: boolean; logger?: Logger } = {},
): Promise<Store> {
  if (cfg.DATABASE_URL) {
    const url = cfg.DATABASE_URL;
    try {
      return await openPostgresStore(url, {
        max: cfg.DATABASE_POOL_MAX,
        prepare: cfg.DATABASE_PREPARED_STATEMENTS,
        ...(o.logger ? { logger: o.logger } : {}),
      });
    } catch (e) {
      const why = redactUrlIn(e instanceof Error ? e.message : String(e), url);
      throw new AppError("config_invalid", `invalid DATABASE_URL=${JSON.stringify(redactUrl(url))}: ${why}`, 500);
    }
  }
  try {
    return openSqliteStore(cfg.DATABASE_PATH, o);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new AppError("config_invalid", `invalid DATABASE_PATH=${JSON.stringify(cfg.DATABASE_PATH)}: ${why}`, 500);
  }
}
