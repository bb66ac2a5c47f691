import { type ApiError, api } from "../api.ts";
import { h, mount } from "../dom.ts";
import { navigate } from "../router.ts";
import { firstInvalid, passwordProblem, passwordRule } from "./password-rule.ts";
import { signinNotice } from "./signin-notice.ts";

/** The mailed link's token, from /confirm#token=… (a fragment: it reaches no server log). */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, "")).get("token");

/**
 * Where the mailed link lands (README "Accounts: sign-up and sign-in"). Opening it confirms
 * nothing: the address is confirmed when its holder chooses the password here, so a mail
 * scanner's visit or a squatter's sign-up never activates a password someone else chose.
 */
export async function confirmPage(): Promise<void> {
  const token = tokenOf(location.hash);
  const alert = h("div", { role: "alert", "aria-live": "assertive" });
  const password = h("input", {
    type: "password",
    name: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 8,
    maxlength: 256,
  });
  const submit = h("button", { type: "submit" }, "Confirm and sign in");
  const form = h(
    "form",
    { class: "stack", novalidate: true },
    h("label", {}, "Password", password),
    passwordRule(password),
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    alert.replaceChildren();
    if (firstInvalid(password))
      return void alert.replaceChildren(h("p", { class: "alert" }, passwordProblem(password)));
    submit.disabled = true;
    try {
      await api("POST", "/api/v1/auth/confirm", { token, password: password.value });
      navigate("/research", true);
    } catch (err) {
      const x = err as ApiError;
      const msg =
        x.code === "confirmation_invalid"
          ? signinNotice("?error=confirmation_invalid")
          : x.code === "invalid_request"
            ? `Enter a password of 8 to 256 characters (the server said: ${x.message}).`
            : x.message;
      alert.replaceChildren(h("p", { class: "alert" }, msg ?? x.message));
    } finally {
      submit.disabled = false;
    }
  });
  mount(
    h("h1", {}, "Confirm your address"),
    h("p", {}, "Choose the password for this account. It replaces any password given at sign-up."),
    alert,
    token ? form : h("p", { class: "alert" }, signinNotice("?error=confirmation_invalid")),
    h("p", {}, h("a", { href: "/signin", "data-link": true }, "Back to sign in")),
  );
}
