import { openSignup } from "../auth/signup-limits.ts";
import type { Config } from "../config/schema.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "../util/logger.ts";

/**
 * One line at start for each shared collection: every account's runs read it (README
 * "Collections for a team"). Threat: an operator's documents quoted to strangers unnoticed —
 * collections made before owners existed became shared, and with sign-up open anyone can make
 * an account, so then each line is a warning saying so and how to stop it
 * (docs/decisions/0077-serve-names-shared-collections.md).
 */
export async function logSharedCollections(
  store: Store,
  config: Pick<Config, "SIGNUP" | "SIGNUP_DOMAINS">,
  logger: Logger,
): Promise<void> {
  const shared = (await store.corpus.collections("all")).filter((c) => c.visibility === "shared");
  const anyone = openSignup(config);
  for (const c of shared) {
    const fields = { collection: c.name, owner: c.owner, documents: c.documents };
    const docs = `${c.documents} document${c.documents === 1 ? "" : "s"}`;
    const every = `every account can read collection ${c.name} (${c.owner ? `owner ${c.owner}` : "no owner"}, ${docs}) through its answers`;
    if (!anyone) logger.info("shared_collection", { ...fields, message: every });
    else
      logger.warn("shared_collection_open_signup", {
        ...fields,
        message: `${every}, and sign-up is open (SIGNUP=open): ${anyone} can read it too. Close sign-up (SIGNUP=closed) or make it private: research-query corpus unshare ${c.name} --owner ${c.owner ?? "EMAIL"}`,
      });
  }
}
