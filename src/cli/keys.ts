import { findAccountByEmail } from "../auth/accounts.ts";
import type { KeyRecord } from "../contract/console.ts";
import { AppError } from "../contract/errors.ts";
import { createKey, listKeys, revokeKey } from "../keys/api-keys.ts";
import type { Store } from "../store/types.ts";
import type { CommandInput } from "./command.ts";
import { columns } from "./terminal.ts";
import { withStore } from "./with-store.ts";

async function accountId(store: Store, email: string): Promise<string> {
  const acc = await findAccountByEmail(store, email);
  if (!acc) throw new AppError("not_found", `no account with email ${email}`);
  return acc.id;
}

/** `key create EMAIL [--name N]`: prints the full key (shown this once). */
export const keyCreate = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const name = input.options.name;
    const label = typeof name === "string" && name ? name.slice(0, 100) : null;
    const created = await createKey(store, await accountId(store, input.args[0]!), label, input.cfg.KEYS_PER_ACCOUNT);
    console.log(created.key);
    return 0;
  });

const when = (t: string | null) => (t ? `${t.slice(0, 19)}Z` : "never");

/** Columns for people; never the full key or its hash (the store keeps only the hash). */
function keyTable(keys: KeyRecord[]): string {
  const rows = [
    ["ID", "NAME", "PREFIX", "STATUS", "CREATED", "LAST USED"],
    ...keys.map((k) => [k.id, k.name ?? "-", k.prefix, k.status, when(k.created_at), when(k.last_used_at)]),
  ];
  return columns(rows);
}

/** `key list EMAIL [--json]`: --json prints what GET /api/console/keys answers. */
export const keyList = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const keys = await listKeys(store, await accountId(store, input.args[0]!));
    // The GET answer's shape, with every key: nothing follows.
    if (input.options.json) console.log(JSON.stringify({ keys, next: null }));
    else if (keys.length) console.log(keyTable(keys));
    else process.stderr.write(`${input.args[0]} has no keys\n`);
    return 0;
  });

/** `key revoke KEY_ID [--json]`: as the Console's DELETE, revoking a revoked key answers it again. */
export const keyRevoke = (input: CommandInput) =>
  withStore(input.cfg, async (store) => {
    const id = input.args[0]!;
    const owner = await store.apiKeys.accountOf(id);
    if (!owner) throw new AppError("key_not_found", `no key with id ${id}`);
    const r = await revokeKey(store, owner, id);
    console.log(input.options.json ? JSON.stringify(r) : `revoked ${r.id} (since ${when(r.revoked_at)})`);
    return 0;
  });
