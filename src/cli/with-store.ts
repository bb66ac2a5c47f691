import type { Config } from "../config/schema.ts";
import { openStore } from "../store/open.ts";
import type { Store } from "../store/types.ts";

/** Runs a command's work on the configured store, closing it whatever happens. */
export async function withStore<T>(cfg: Config, f: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(cfg);
  try {
    return await f(store);
  } finally {
    await store.close();
  }
}
