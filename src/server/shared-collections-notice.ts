import { openSignup } from "../auth/signup-limits.ts";
import type { Config } from "../config/schema.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";

/** Names a start line lists; `corpus list` shows every one. */
const NAMED = 5;

/**
 * One line at start naming the shared collections: every account's runs read them (README
 * "Collections for a team"). Threat: an operator's documents quoted to strangers unnoticed —
 * collections made before owners existed became shared, and with sign-up open anyone can make
 * an account, so then the line is a warning saying so and how to stop it
 * (docs/decisions/0077-serve-names-shared-collections.md). One line, not one per collection: a
 * team with twenty shared collections read twenty long warnings at every start
 * (docs/decisions/0149-every-log-line-on-one-stream.md).
 */
export async function logSharedCollections(
  store: Store,
  config: Pick<Config, "SIGNUP" | "SIGNUP_DOMAINS">,
  logger: Logger,
): Promise<void> {
  const shared = (await store.corpus.collections("all")).filter((c) => c.visibility === "shared");
  if (!shared.length) return;
  const names = shared.map((c) => c.name);
  const listed = names.slice(0, NAMED).join(", ") + (names.length > NAMED ? ` and ${names.length - NAMED} more` : "");
  const fields = {
    count: shared.length,
    collections: names.slice(0, NAMED),
    documents: shared.reduce((n, c) => n + c.documents, 0),
  };
  const one = shared.length === 1;
  const every = `every account reads ${one ? "collection" : `${shared.length} shared collections:`} ${listed} (research-query corpus list)`;
  const anyone = openSignup(config);
  if (!anyone) logger.info("shared_collections", { ...fields, message: every });
  else
    logger.warn("shared_collections_open_signup", {
      ...fields,
      message: `${every}; sign-up is open (SIGNUP=open), so ${anyone} reads ${one ? "it" : "them"} too: set SIGNUP=closed, or research-query corpus unshare NAME --owner EMAIL`,
    });
}
