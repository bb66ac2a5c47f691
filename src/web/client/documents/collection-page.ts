import type { Collection, DocumentItem } from "../../../contract/collections.ts";
import type { Usage } from "../../../contract/console.ts";
import { api } from "../api.ts";
import { type CollectionAddress, collectionApi, documentApi, documentHref } from "../doc-links.ts";
import { h, mount } from "../dom.ts";
import { fmtBytes, fmtNumber, plural } from "../format.ts";
import { collectionSettings } from "./collection-settings.ts";
import { crumbs } from "./crumbs.ts";
import { documentPages } from "./document-pages.ts";
import { dropZone } from "./drop-zone.ts";
import { ownerLabel, STATUS_LABEL, visibilityLabel } from "./labels.ts";
import { storageLine } from "./storage-line.ts";
import { uploader } from "./uploader.ts";

/** Between two reads of the documents' statuses while files are indexed. */
const POLL_MS = 1000;

/**
 * The collection an address names, as the API resolves it: with an owner, that owner's; else
 * the caller's own, or else a shared one of that name.
 */
async function findCollection(at: CollectionAddress): Promise<Collection | null> {
  const { collections } = await api<{ collections: Collection[] }>("GET", "/api/console/collections");
  const named = collections.filter((c) => c.name === at.name);
  if (at.owner === "") return named.find((c) => c.owner === null) ?? null;
  if (at.owner) return named.find((c) => !c.mine && c.owner === at.owner) ?? named.find((c) => c.mine) ?? null;
  return named.find((c) => c.mine) ?? named[0] ?? null;
}

function documentsTable(docs: DocumentItem[], at: CollectionAddress, mine: boolean, reload: () => void): HTMLElement {
  if (!docs.length) return h("p", { class: "muted" }, mine ? "No documents yet: upload some above." : "No documents.");
  const row = (d: DocumentItem) =>
    h(
      "tr",
      { "data-doc": d.doc_id },
      h(
        "td",
        { "data-label": "Title" },
        d.status === "ready"
          ? h("a", { href: documentHref({ ...at, docId: d.doc_id }), "data-link": true }, d.title || d.doc_id)
          : d.title || d.doc_id,
      ),
      h("td", { "data-label": "ID" }, h("code", {}, d.doc_id)),
      h(
        "td",
        { "data-label": "Status", class: `doc-status status-${d.status}` },
        d.error ? `${STATUS_LABEL[d.status]}: ${d.error}` : STATUS_LABEL[d.status],
      ),
      // Text kept, in characters: the sizes in bytes above (KiB, MiB) are the files' and the plan's.
      h("td", { "data-label": "Characters" }, fmtNumber(d.chars)),
      h(
        "td",
        { class: "actions" },
        mine
          ? h(
              "button",
              {
                type: "button",
                class: "danger",
                "aria-label": `Remove ${d.doc_id}`,
                onclick: async () => {
                  if (!confirm(`Remove ${d.doc_id} from ${at.name}? Runs will no longer find it.`)) return;
                  await api("DELETE", documentApi({ ...at, docId: d.doc_id }));
                  reload();
                },
              },
              "Remove",
            )
          : null,
      ),
    );
  const head = h(
    "thead",
    {},
    h("tr", {}, ...["Title", "ID", "Status", "Characters", ""].map((c) => h("th", { scope: "col" }, c))),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h("table", { class: "cards documents" }, head, h("tbody", {}, ...docs.map(row))),
  );
}

/** One collection: its documents with their status; for its owner, uploads and settings. */
export async function collectionPage(at: CollectionAddress): Promise<void> {
  const c = await findCollection(at);
  if (!c)
    return mount(
      h("h1", {}, "Collection not found"),
      h("p", {}, "There is no collection of that name that you can read."),
      h("p", {}, h("a", { href: "/documents", "data-link": true }, "All collections")),
    );
  const pages = documentPages(at);
  // The counts, size and storage above the list follow it as files are indexed or removed.
  const summary = h("p", { class: "muted" });
  const storage = h("div", {});
  const refreshHeader = async () => {
    const [now, usage] = await Promise.all([
      findCollection(at),
      c.mine ? api<Usage>("GET", "/api/console/usage") : null,
    ]);
    if (now)
      summary.textContent = `Owner: ${ownerLabel(now)} · ${visibilityLabel(now)} · ${plural(now.documents, "document")} · ${fmtBytes(now.bytes)}`;
    if (usage) storage.replaceChildren(storageLine(usage));
  };
  const docsBox = h("div", {});
  let shown = "";
  const showDocs = (docs: DocumentItem[]) => {
    docsBox.replaceChildren(
      documentsTable(docs, at, c.mine, reload),
      pages.hasMore()
        ? h(
            "button",
            { type: "button", class: "more", onclick: () => void pages.more().then(showDocs) },
            "More documents",
          )
        : "",
    );
    const now = JSON.stringify(docs.map((d) => [d.doc_id, d.status]));
    if (shown && now !== shown) void refreshHeader().catch(() => {});
    shown = now;
  };
  const reload = () => void pages.read().then(showDocs);
  showDocs(await pages.read());
  await refreshHeader();

  let uploads: HTMLElement | null = null;
  if (c.mine) {
    const up = uploader({
      url: collectionApi(at, "/documents"),
      listDocuments: pages.read,
      findDocument: pages.find,
      onDocuments: showDocs,
      pause: () => new Promise((r) => setTimeout(r, POLL_MS)),
    });
    uploads = h(
      "section",
      { "aria-labelledby": "upload-title" },
      h("h2", { id: "upload-title" }, "Upload"),
      storage,
      dropZone((files) => up.add(files)),
      up.list,
    );
  }
  mount(
    crumbs([["Documents", "/documents"]], c.name),
    h("h1", {}, c.name),
    summary,
    c.mine
      ? null
      : h("p", { class: "note" }, "A shared collection of another account: you can read it, not change it."),
    uploads,
    h("h2", {}, "Documents"),
    docsBox,
    c.mine ? collectionSettings(c, at) : null,
  );
}
