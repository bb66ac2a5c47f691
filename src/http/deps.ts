import type { LoginThrottle } from "../auth/login-throttle.ts";
import type { Config } from "../config/schema.ts";
import type { Db } from "../db/open.ts";
import type { Engine } from "../research/types.ts";
import type { RunRegistry } from "../runs/registry.ts";
import type { Logger } from "../util/logger.ts";
import type { Metrics } from "../metrics/registry.ts";

/** Everything the HTTP layer needs; tests build it with their own engine and config. */
export interface AppDeps {
  config: Config;
  db: Db;
  engine: Engine;
  registry: RunRegistry;
  logger: Logger;
  throttle: LoginThrottle;
  metrics: Metrics;
  /** Longest silence on a stream before a `: keep-alive` comment (CONTRACT §5: ≤ 15 s). */
  keepAliveMs: number;
}
