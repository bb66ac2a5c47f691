import type { Config } from "../config/schema.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../util/logger.ts";
import type { Engine } from "./types.ts";

/** Builds the research engine from the config. (Stages land in the next change.) */
export function buildEngine(_cfg: Config, _logger: Logger): Engine {
  return {
    async run() {
      throw new AppError("internal_error", "the research engine is not available in this build");
    },
  };
}
