import type { Providers } from "../../../contract/auth.ts";
import { type ApiError, api } from "../api.ts";
import { h, mount } from "../dom.ts";
import { navigate } from "../router.ts";
import { signinNotice } from "./signin-notice.ts";

/** Sign in / sign up, plus "Sign in with …" when an identity provider is configured. */
export async function authPage(mode: "signin" | "signup"): Promise<void> {
  const alert = h("div", { role: "alert", "aria-live": "assertive" });
  const notice = signinNotice(location.search);
  if (notice) alert.append(h("p", { class: "alert" }, notice));
  const email = h("input", { type: "email", name: "email", autocomplete: "email", required: true });
  const password = h("input", {
    type: "password",
    name: "password",
    autocomplete: mode === "signup" ? "new-password" : "current-password",
    required: true,
    minlength: 8,
    maxlength: 256,
  });
  const submit = h("button", { type: "submit" }, mode === "signup" ? "Create account" : "Sign in");
  const form = h(
    "form",
    { class: "stack", novalidate: false },
    h("label", {}, "Email", email),
    h("label", {}, "Password", password),
    submit,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    submit.disabled = true;
    alert.replaceChildren();
    try {
      await api("POST", mode === "signup" ? "/api/v1/auth/signup" : "/api/v1/auth/login", {
        email: email.value,
        password: password.value,
      });
      navigate("/research");
    } catch (err) {
      const x = err as ApiError;
      const msg =
        x.code === "invalid_credentials"
          ? "Wrong email or password."
          : x.code === "too_many_attempts"
            ? `Too many failed attempts. Try again in ${x.retryAfter ?? "a few"} seconds.`
            : x.code === "email_taken"
              ? "An account with this email already exists. Sign in instead."
              : x.code === "invalid_request"
                ? mode === "signup"
                  ? "Enter a valid email and a password of 8 to 256 characters."
                  : "Enter your email and password."
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
