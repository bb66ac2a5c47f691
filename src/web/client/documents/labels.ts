import type { Collection, DocumentItem } from "../../../contract/collections.ts";

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
