import type { CreatedKey, KeyList, KeyRecord } from "../../../contract/console.ts";
import { api } from "../api.ts";
import { fmtDate, h, mount } from "../dom.ts";
import { firstPages } from "../first-pages.ts";
import { examples } from "./examples.ts";

const keyPage = (from: string | null) =>
  api<KeyList>("GET", from === null ? "/api/console/keys" : `/api/console/keys?from=${encodeURIComponent(from)}`);

/** The first `pages` pages of the account's keys: revoked keys stay listed and pile up, so the page shows the newest and "More keys" reads on. */
async function readKeys(pages: number): Promise<KeyList> {
  const { items, next } = await firstPages(async (from) => {
    const p = await keyPage(from);
    return { items: p.keys, next: p.next };
  }, pages);
  return { keys: items, next };
}

/** API keys: list, create (full key shown once), revoke with confirmation. */
export function keysPage(): Promise<void> {
  return showKeys(1);
}

/** The page with the first `pages` pages of keys: a revocation redraws as many as were shown. */
async function showKeys(pages: number): Promise<void> {
  let shown = pages;
  const first = await readKeys(pages);
  const keys = first.keys;
  let next = first.next;
  const reveal = h("div", { "aria-live": "polite" });
  const name = h("input", { name: "name", maxlength: 100, placeholder: "e.g. production server" });
  const create = h(
    "form",
    { class: "stack" },
    h("label", {}, "Name (optional)", name),
    h("button", { type: "submit" }, "Create key"),
  );
  create.addEventListener("submit", async (e) => {
    e.preventDefault();
    const k = await api<CreatedKey>("POST", "/api/console/keys", name.value.trim() ? { name: name.value.trim() } : {});
    const copy = h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: async () => {
          await navigator.clipboard?.writeText(k.key).catch(() => {});
          copy.textContent = "Copied";
        },
      },
      "Copy key",
    );
    await keysPage();
    document
      .getElementById("key-reveal")!
      .replaceChildren(
        h(
          "div",
          { class: "note" },
          h(
            "p",
            {},
            h("strong", {}, "Your new API key. "),
            "Copy it now: it cannot be shown again. Lost keys can't be recovered; create a new one and revoke the old.",
          ),
          h("p", { class: "secret", id: "new-key" }, k.key),
          copy,
        ),
      );
  });
  reveal.id = "key-reveal";
  const row = (k: KeyRecord) =>
    h(
      "tr",
      {},
      h("td", { "data-label": "Name" }, k.name ?? h("span", { class: "muted" }, "—")),
      h("td", { "data-label": "Prefix" }, h("code", {}, `${k.prefix}…`)),
      h("td", { "data-label": "Created" }, fmtDate(k.created_at)),
      h("td", { "data-label": "Last used" }, fmtDate(k.last_used_at)),
      h("td", { "data-label": "Status", class: k.status === "active" ? "status-ok" : "status-error" }, k.status),
      h(
        "td",
        { class: "actions" },
        k.status === "active"
          ? h(
              "button",
              {
                type: "button",
                class: "danger",
                "aria-label": `Revoke key ${k.name ?? k.prefix}`,
                onclick: async () => {
                  if (!confirm(`Revoke key ${k.prefix}…? Calls with it will be refused from the next request on.`))
                    return;
                  await api("DELETE", `/api/console/keys/${k.id}`);
                  await showKeys(shown);
                },
              },
              "Revoke",
            )
          : null,
      ),
    );
  const body = h("tbody", {}, ...keys.map(row));
  const more: HTMLButtonElement = h(
    "button",
    {
      type: "button",
      class: "more",
      onclick: async () => {
        more.disabled = true;
        const p = await keyPage(next);
        body.append(...p.keys.map(row));
        next = p.next;
        shown++;
        more.disabled = false;
        if (next === null) more.remove();
      },
    },
    "More keys",
  );
  mount(
    h("h1", {}, "API keys"),
    reveal,
    create,
    h("h2", {}, "Your keys"),
    keys.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "cards" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ...["Name", "Prefix", "Created", "Last used", "Status", ""].map((c) => h("th", { scope: "col" }, c)),
              ),
            ),
            body,
          ),
          next === null ? "" : more,
        )
      : h("p", { class: "muted" }, "No keys yet."),
    h("h2", {}, "Use a key"),
    examples(location.origin),
  );
}
