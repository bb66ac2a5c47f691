import { type ApiError, api, type Me } from "../api.ts";
import { h, mount } from "../dom.ts";
import { navigate } from "../router.ts";

/** What a refusal of the deletion says to the person (README "When a person leaves"). */
function refusal(x: ApiError): string {
  if (x.code === "invalid_credentials") return "That is not your password: nothing was deleted.";
  if (x.code === "reauthentication_required" || x.code === "too_many_attempts") return x.message;
  return `Your account was not deleted: ${x.message}`;
}

/**
 * Settings: the person's data to take away, and the account to delete (README "When a person
 * leaves"). Deleting asks for the address typed again and the password; an account of the
 * identity provider has none, and deletes within 10 minutes of signing in instead.
 */
export function settingsPage(me: Me): void {
  const alert = h("div", { role: "alert", "aria-live": "assertive" });
  const typed = h("input", { name: "confirm-email", type: "email", autocomplete: "off", required: true });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password" });
  const submit = h("button", { type: "submit", class: "danger" }, "Delete my account");
  const form = h(
    "form",
    { class: "stack", novalidate: true },
    h("label", {}, `Type ${me.email} to confirm`, typed),
    h("label", {}, "Password", password),
    h(
      "p",
      { class: "muted" },
      "Signed in through your identity provider? Leave the password empty; sign in again first if it was over 10 minutes ago.",
    ),
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    alert.replaceChildren();
    if (typed.value.trim().toLowerCase() !== me.email)
      return void alert.replaceChildren(h("p", { class: "alert" }, `Type ${me.email} exactly to confirm.`));
    submit.disabled = true;
    try {
      await api("DELETE", "/api/v1/me", password.value ? { password: password.value } : {});
      navigate("/signin", true);
    } catch (err) {
      alert.replaceChildren(h("p", { class: "alert" }, refusal(err as ApiError)));
    } finally {
      submit.disabled = false;
    }
  });
  mount(
    h("h1", {}, "Settings"),
    h(
      "section",
      { "aria-labelledby": "your-data" },
      h("h2", { id: "your-data" }, "Your data"),
      h(
        "p",
        {},
        "One JSON file with your account, your keys (their prefixes), your usage, every run with its answer and sources, your collections with their documents' text, and your audit trail.",
      ),
      h(
        "p",
        {},
        h(
          "a",
          { href: "/api/v1/me/export", download: "research-query-export.json", class: "button" },
          "Download my data",
        ),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "delete-account" },
      h("h2", { id: "delete-account" }, "Delete my account"),
      h(
        "p",
        {},
        "Deletes your account, sessions, keys, runs, private collections and uploads at once; this cannot be undone. Collections you shared stay for the team, owned by no one.",
      ),
      alert,
      form,
    ),
  );
}
