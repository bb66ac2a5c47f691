import type { Collection } from "../../../contract/collections.ts";
import { api } from "../api.ts";
import { type CollectionAddress, collectionApi, collectionHref } from "../doc-links.ts";
import { h } from "../dom.ts";
import { navigate } from "../router.ts";
import { NAME_HINT, NAME_PATTERN } from "./documents-page.ts";

/** Runs a change; a refusal is shown in `alert` instead of escaping as an unhandled rejection. */
async function attempt(alert: HTMLElement, change: () => Promise<void>): Promise<void> {
  alert.replaceChildren();
  try {
    await change();
  } catch (e) {
    alert.replaceChildren(h("p", { class: "alert" }, (e as Error).message));
  }
}

/** Who reads it, and the button that changes that (sharing asks first: every account will read it). */
function visibilityPart(c: Collection, at: CollectionAddress, alert: HTMLElement): HTMLElement {
  const shared = c.visibility === "shared";
  const toggle = h("button", { type: "button", class: "secondary" }, shared ? "Make private" : "Make shared");
  toggle.addEventListener("click", () =>
    attempt(alert, async () => {
      if (
        !shared &&
        !confirm(`Share ${c.name}? Every account on this server will be able to read its documents in their answers.`)
      )
        return;
      await api("PATCH", collectionApi(at), { visibility: shared ? "private" : "shared" });
      navigate(collectionHref(at), true);
    }),
  );
  return h(
    "div",
    { class: "setting" },
    h(
      "p",
      {},
      h("strong", {}, shared ? "Shared. " : "Private. "),
      shared ? "Every account's runs search it." : "Only your runs search it.",
    ),
    toggle,
  );
}

function renamePart(c: Collection, at: CollectionAddress, alert: HTMLElement): HTMLElement {
  const name = h("input", { name: "new-name", required: true, pattern: NAME_PATTERN, maxlength: 64, value: c.name });
  name.title = NAME_HINT;
  const form = h(
    "form",
    { class: "inline" },
    h("label", {}, "New name", name),
    h("button", { type: "submit", class: "secondary" }, "Rename"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (name.value === c.name) return;
    void attempt(alert, async () => {
      await api("PATCH", collectionApi(at), { name: name.value });
      navigate(collectionHref({ name: name.value }), true);
    });
  });
  return form;
}

function deletePart(c: Collection, at: CollectionAddress, alert: HTMLElement): HTMLElement {
  return h(
    "button",
    {
      type: "button",
      class: "danger",
      onclick: () =>
        attempt(alert, async () => {
          if (!confirm(`Delete ${c.name} and every document in it? This cannot be undone.`)) return;
          await api("DELETE", collectionApi(at));
          navigate("/documents", true);
        }),
    },
    "Delete collection",
  );
}

/** The owner's controls of a collection: who reads it, its name, deleting it. */
export function collectionSettings(c: Collection, at: CollectionAddress): HTMLElement {
  const alert = h("div", { role: "alert" });
  return h(
    "section",
    { class: "settings", "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, "Settings"),
    alert,
    visibilityPart(c, at, alert),
    renamePart(c, at, alert),
    deletePart(c, at, alert),
  );
}
