import type { Collection, Visibility } from "../../../contract/collections.ts";
import type { Usage } from "../../../contract/console.ts";
import { ApiError, api } from "../api.ts";
import { collectionHref } from "../doc-links.ts";
import { h, mount } from "../dom.ts";
import { fmtBytes, fmtNumber } from "../format.ts";
import { navigate } from "../router.ts";
import { ownerLabel, visibilityLabel } from "./labels.ts";
import { storageLine } from "./storage-line.ts";

/** The server's rule for a collection's name, so the form says what is wrong before sending. */
export const NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}";
export const NAME_HINT = "1–64 letters, digits, “.”, “_” or “-”, starting with a letter or digit.";

/** `taken`: the caller's own names; one of those is refused here, before a 409 from the server. */
function createForm(taken: Set<string>): HTMLFormElement {
  const alert = h("div", { role: "alert" });
  const name = h("input", {
    name: "name",
    required: true,
    pattern: NAME_PATTERN,
    maxlength: 64,
    autocomplete: "off",
    "aria-describedby": "name-hint",
  });
  const choice = (value: Visibility, text: string, hint: string) =>
    h(
      "label",
      { class: "choice" },
      h("input", { type: "radio", name: "visibility", value, checked: value === "private" }),
      h("span", {}, text, h("span", { class: "muted" }, ` — ${hint}`)),
    );
  const form = h(
    "form",
    { class: "stack" },
    h("label", {}, "Collection name", name),
    h("p", { class: "muted hint", id: "name-hint" }, NAME_HINT),
    h(
      "fieldset",
      {},
      h("legend", {}, "Who can read it"),
      choice("private", "Private", "only your runs search it"),
      choice("shared", "Shared", "every account on this server"),
    ),
    alert,
    h("button", { type: "submit" }, "Create collection"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const visibility = (new FormData(form).get("visibility") as Visibility | null) ?? "private";
    const exists = () =>
      alert.replaceChildren(h("p", { class: "alert" }, `You already have a collection named ${name.value}.`));
    if (taken.has(name.value)) return exists();
    try {
      await api("POST", "/api/console/collections", { name: name.value, visibility });
      navigate(collectionHref({ name: name.value }));
    } catch (err) {
      const taken = err instanceof ApiError && err.status === 409;
      alert.replaceChildren(
        h(
          "p",
          { class: "alert" },
          taken ? `You already have a collection named ${name.value}.` : (err as Error).message,
        ),
      );
    }
  });
  return form;
}

function table(collections: Collection[]): HTMLElement {
  const row = (c: Collection) =>
    h(
      "tr",
      {},
      h(
        "td",
        { "data-label": "Name" },
        h(
          "a",
          { href: collectionHref({ name: c.name, owner: c.mine ? null : (c.owner ?? "") }), "data-link": true },
          c.name,
        ),
      ),
      h("td", { "data-label": "Owner" }, ownerLabel(c)),
      h("td", { "data-label": "Visibility" }, visibilityLabel(c)),
      h("td", { "data-label": "Documents" }, fmtNumber(c.documents)),
      h("td", { "data-label": "Size" }, fmtBytes(c.bytes)),
    );
  const head = h(
    "thead",
    {},
    h("tr", {}, ...["Name", "Owner", "Visibility", "Documents", "Size"].map((c) => h("th", { scope: "col" }, c))),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h("table", { class: "cards collections" }, head, h("tbody", {}, ...collections.map(row))),
  );
}

/** Documents: the collections the caller may read (own first), and a form to make one. */
export async function documentsPage(): Promise<void> {
  const [{ collections }, usage] = await Promise.all([
    api<{ collections: Collection[] }>("GET", "/api/console/collections"),
    api<Usage>("GET", "/api/console/usage"),
  ]);
  const own = collections.filter((c) => c.mine);
  const others = collections.filter((c) => !c.mine);
  mount(
    h("h1", {}, "Documents"),
    h(
      "p",
      {},
      "Your runs search your own collections and the shared ones. Upload files to a collection of yours; ",
      "a private collection is searched only by your runs.",
    ),
    storageLine(usage),
    h("h2", {}, "Your collections"),
    own.length ? table(own) : h("p", { class: "muted" }, "None yet: create one below."),
    h("h2", {}, "Shared with everyone"),
    others.length ? table(others) : h("p", { class: "muted" }, "No one else has shared a collection."),
    h("h2", {}, "New collection"),
    createForm(new Set(own.map((c) => c.name))),
  );
}
