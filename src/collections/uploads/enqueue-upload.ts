import type { Account } from "../../auth/accounts.ts";
import type { AuditScope } from "../../auth/audit/audit.ts";
import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import { storageAllowanceFor, withinAllowance } from "../../corpus/storage-allowance.ts";
import type { CollectionRef, StorageUse, Store, UploadRow } from "../../store/types.ts";
import type { Spool } from "./spool.ts";
import type { ReceivedFile } from "./upload-intake.ts";

const count = (n: number) => n.toLocaleString("en");
const mib = (n: number) => `${(n / 1048576).toLocaleString("en", { maximumFractionDigits: 1 })} MiB`;

/** The allowance a refused upload would have passed, in words. */
function overMessage(use: StorageUse, allowance: StorageUse): string {
  const parts: string[] = [];
  if (use.documents > allowance.documents)
    parts.push(`${count(use.documents)} documents of the ${count(allowance.documents)} your plan keeps`);
  if (use.bytes > allowance.bytes) parts.push(`${mib(use.bytes)} of the ${mib(allowance.bytes)} your plan keeps`);
  return `with this upload your collections would hold ${parts.join(" and ")} (files being imported count at their size): nothing was stored; remove documents or ask for a larger plan`;
}

/** A full disk, as either backend reports it (SQLite's result code, PostgreSQL's SQLSTATE 53100). */
export const isDiskFull = (e: unknown): boolean => {
  const x = e as { code?: string; errno?: string | number };
  return x?.code === "SQLITE_FULL" || x?.errno === "53100" || x?.code === "ERR_POSTGRES_SERVER_ERROR_53100";
};

/**
 * Queues spooled files for import into the caller's collection, within the plan's storage
 * allowance (README "Collections for a team"): the check and the queueing are one transaction,
 * so two uploads racing cannot both pass it. A refusal leaves nothing: the files leave the spool.
 * A file of a doc_id already queued (or failed) replaces that row: the later upload wins.
 */
export async function enqueueUpload(
  store: Store,
  cfg: Config,
  spool: Spool,
  o: { account: Account; collection: CollectionRef; files: ReceivedFile[]; instanceId: string; audit?: AuditScope },
): Promise<UploadRow[]> {
  const allowance = storageAllowanceFor(cfg, o.account.plan);
  let seen: StorageUse = { documents: 0, bytes: 0 };
  const dropAll = () => {
    for (const f of o.files) spool.remove(f.spool);
  };
  let outcome: Awaited<ReturnType<Store["uploads"]["enqueue"]>>;
  const files = o.files.length === 1 ? o.files[0]!.docId : `${o.files.length} files`;
  const note = o.audit?.note("documents_uploaded", { target: o.collection.name, detail: files });
  try {
    outcome = await store.uploads.enqueue(
      o.collection.id,
      o.account.id,
      o.files.map((f) => ({ ...f, collectionId: o.collection.id, instanceId: o.instanceId })),
      (use) => {
        seen = use;
        return withinAllowance(use, allowance);
      },
      note,
    );
  } catch (e) {
    dropAll();
    if (isDiskFull(e))
      throw new AppError("insufficient_storage", "the server's database is full: nothing was stored; try again later");
    throw e;
  }
  if (outcome === "missing") {
    dropAll();
    throw new AppError("collection_not_found", "the collection was removed meanwhile: nothing was stored");
  }
  if (outcome === "over") {
    dropAll();
    throw new AppError("storage_quota_exceeded", overMessage(seen, allowance));
  }
  o.audit?.logged(note);
  for (const s of outcome.superseded) spool.remove(s);
  return outcome.queued;
}
