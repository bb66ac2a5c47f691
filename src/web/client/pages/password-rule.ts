import { h } from "../dom.ts";

/** A new password's rule, as the server checks it (src/contract/auth.ts: 8 to 256 characters). */
const PASSWORD_RULE = "Use 8 to 256 characters.";

/**
 * The rule in words under a new password's field, named by it (`aria-describedby`): it was only
 * the browser's bubble, shown after the rule was broken and gone a moment later.
 */
export function passwordRule(field: HTMLInputElement): HTMLElement {
  const id = `${field.name}-rule`;
  field.setAttribute("aria-describedby", id);
  return h("p", { class: "muted hint", id }, PASSWORD_RULE);
}

/** What is wrong with a new password the field refuses, and the rule: the alert says more than the hint under the field. */
export function passwordProblem(field: HTMLInputElement): string {
  const v = field.validity;
  const what = v.valueMissing
    ? "Enter a password"
    : v.tooShort
      ? "This password is too short"
      : "This password is too long";
  return `${what}: ${PASSWORD_RULE.charAt(0).toLowerCase()}${PASSWORD_RULE.slice(1)}`;
}

/**
 * The first field of `fields` the browser finds invalid, marked `aria-invalid` and focused;
 * null when all are valid. The form has `novalidate`: it says what is wrong in its own words.
 */
export function firstInvalid(...fields: HTMLInputElement[]): HTMLInputElement | null {
  const wrong = fields.find((f) => !f.validity.valid) ?? null;
  for (const f of fields) f.toggleAttribute("aria-invalid", f === wrong);
  wrong?.focus();
  return wrong;
}
