import type { LoginThrottle } from "../auth/login-throttle.ts";
import type { Config } from "../config/schema.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { RunService } from "../runs/service.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";

/** Everything the routes need; tests build it with their own engine and config. */
export interface AppDeps {
  config: Config;
  store: Store;
  runs: RunService;
  logger: Logger;
  throttle: LoginThrottle;
  metrics: Metrics;
  /** Longest silence on a stream before a `: keep-alive` comment (README "The API": ≤ 15 s). */
  keepAliveMs: number;
  /** How long a request body may take to arrive (http/request-body.ts); tests shorten it. */
  bodyTimeoutMs?: number;
}
