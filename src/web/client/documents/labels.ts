import type { Collection, DocumentItem } from "../../../contract/collections.ts";

/** Bytes as people read them: 0 B, 950 B, 1.2 kB, 3.4 MB (powers of 1,000, as disks are sold). */
export function fmtBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** Whose a collection is: "you", the owner's email, or the operator's (made before owners existed). */
export function ownerLabel(c: Pick<Collection, "mine" | "owner">): string {
  return c.mine ? "you" : (c.owner ?? "the operator");
}

export function visibilityLabel(c: Pick<Collection, "visibility" | "mine">): string {
  if (c.visibility === "private") return "Private";
  return c.mine ? "Shared" : "Shared (read-only)";
}

export const STATUS_LABEL: Record<DocumentItem["status"], string> = {
  queued: "Queued",
  indexing: "Indexing",
  ready: "Ready",
  failed: "Failed",
};
