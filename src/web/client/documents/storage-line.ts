import type { Usage } from "../../../contract/console.ts";
import { h } from "../dom.ts";
import { fmtBytes, fmtNumber, plural } from "../format.ts";

/** The plan's storage allowance as one sentence: documents and bytes used of each. */
export function storageLine(u: Pick<Usage, "plan" | "storage">): HTMLElement {
  const { documents: d, bytes: b } = u.storage;
  const full = d.remaining === 0 || b.remaining === 0;
  return h(
    "p",
    { class: full ? "alert storage" : "muted storage" },
    `Storage: ${fmtNumber(d.used)} of ${plural(d.limit, "document")} and ${fmtBytes(b.used)} of ${fmtBytes(b.limit)} used on the ${u.plan} plan.`,
    full ? " It is full: remove documents before uploading more." : "",
  );
}
