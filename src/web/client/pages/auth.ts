import type { Providers, SignupPending } from "../../../contract/auth.ts";
import { type ApiError, api } from "../api.ts";
import { h, mount } from "../dom.ts";
import { plural } from "../format.ts";
import { navigate } from "../router.ts";
import { firstInvalid, passwordProblem, passwordRule } from "./password-rule.ts";
import { signinNotice } from "./signin-notice.ts";

/** "Check your mail" with a button that mails the link again (README "Accounts: sign-up and sign-in"). */
function checkMail(text: string, address: string): HTMLElement {
  const status = h("p", { role: "status" });
  const again = h("button", { type: "button", class: "secondary" }, "Send the link again");
  again.addEventListener("click", async () => {
    again.disabled = true;
    const sent = await api("POST", "/api/v1/auth/confirm/resend", { email: address }).then(
      () => "If the address is waiting for confirmation, another link is on its way (at most one a minute).",
      (err: ApiError) => err.message,
    );
    status.replaceChildren(sent);
    again.disabled = false;
  });
  return h("div", { class: "alert notice" }, h("p", {}, text), again, status);
}

/** Sign in / sign up, plus "Sign in with …" when an identity provider is configured. */
export async function authPage(mode: "signin" | "signup"): Promise<void> {
  const alert = h("div", { role: "alert", "aria-live": "assertive" });
  const notice = signinNotice(location.search);
  if (notice) alert.append(h("p", { class: "alert" }, notice));
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const signup = mode === "signup";
  const password = h("input", {
    type: "password",
    name: "password",
    autocomplete: signup ? "new-password" : "current-password",
    required: true,
    minlength: signup ? 8 : undefined,
    maxlength: 256,
  });
  const rule = signup ? passwordRule(password) : null;
  const submit = h("button", { type: "submit" }, signup ? "Create account" : "Sign in");
  const form = h(
    "form",
    // The form says what is wrong in its own words (below), not in the browser's bubble.
    { class: "stack", novalidate: true },
    h("label", {}, "Email", email),
    h("label", {}, "Password", password),
    rule,
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    alert.replaceChildren();
    const wrong = firstInvalid(email, password);
    if (wrong) {
      const say =
        wrong === email ? "Enter a valid email address." : signup ? passwordProblem(password) : "Enter your password.";
      alert.replaceChildren(h("p", { class: "alert" }, say));
      return;
    }
    submit.disabled = true;
    try {
      const answer = await api<Partial<SignupPending>>(
        "POST",
        mode === "signup" ? "/api/v1/auth/signup" : "/api/v1/auth/login",
        { email: email.value, password: password.value },
      );
      if (answer?.status === "confirmation_sent") {
        const text = `Check your mail: we sent a link to ${answer.email}. Open it to confirm your address, then sign in.`;
        form.replaceWith(checkMail(text, email.value));
        return;
      }
      navigate("/research");
    } catch (err) {
      const x = err as ApiError;
      if (x.code === "email_not_confirmed") {
        alert.replaceChildren(
          checkMail("Confirm your email address first: open the link we mailed to it.", email.value),
        );
        return;
      }
      const msg =
        x.code === "invalid_credentials"
          ? "Wrong email or password."
          : x.code === "too_many_attempts"
            ? `Too many failed attempts. Try again in ${x.retryAfter ? plural(x.retryAfter, "second") : "a few seconds"}.`
            : x.code === "email_taken"
              ? "An account with this email already exists. Sign in instead."
              : x.code === "invalid_request"
                ? `${signup ? `Enter a valid email and a password of 8 to 256 characters` : "Enter your email and password"} (the server said: ${x.message}).`
                : x.message;
      alert.replaceChildren(h("p", { class: "alert" }, msg));
    } finally {
      submit.disabled = false;
    }
  });
  const providers = await api<Pick<Providers, "oidc">>("GET", "/api/v1/auth/providers").catch(() => ({ oidc: null }));
  mount(
    h("h1", {}, mode === "signup" ? "Create an account" : "Sign in"),
    alert,
    form,
    providers.oidc
      ? h(
          "p",
          {},
          h("a", { class: "button secondary", href: providers.oidc.start_url }, `Sign in with ${providers.oidc.name}`),
        )
      : null,
    h(
      "p",
      {},
      mode === "signup"
        ? h("a", { href: "/signin", "data-link": true }, "Already have an account? Sign in")
        : h("a", { href: "/signup", "data-link": true }, "No account yet? Sign up"),
    ),
  );
}
