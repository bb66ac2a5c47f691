/**
 * One address, one account. Threat: a look-alike of someone's address (the same text in
 * another Unicode encoding, or with an invisible character inside) becoming a second
 * account — or, through the identity provider's "verified email", being linked to theirs.
 *
 * The canonical form is trimmed, NFC, lower-cased: NFC only merges strings that are the
 * same text encoded differently (RFC 6532 §3.1 asks mail systems for NFC), so no two
 * mailboxes are ever folded into one. NFKC would fold "ｂob" into "bob" — distinct mailboxes
 * — which through identity-provider linking would hand one person's account to another; such
 * characters are refused at sign-up instead.
 */
// Control, format (zero-width, bidi), private-use and surrogate code points, default-ignorable
// ones (variation selectors, Hangul fillers), separators, and the blank braille pattern.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Z}\u2800]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

export const normalizeEmail = (email: string): string =>
  email.trim().normalize("NFC").toLowerCase().normalize("NFC").replace(INVISIBLE_ALL, "");

/** How emails were stored before normalisation (trimmed, lower-cased): found as typed. */
export const legacyEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Why an address may not name a new account, or undefined. Sign-in only normalises (an
 * invisible character typed there finds the account without it); a new account, the CLI's
 * and an identity provider's email must be plain.
 */
export function emailProblem(email: string): string | undefined {
  const nfc = email.trim().normalize("NFC");
  if (INVISIBLE.test(nfc)) return "the email contains invisible or control characters";
  if (nfc.normalize("NFKC") !== nfc) return "the email contains look-alike characters (such as full-width letters)";
  return undefined;
}

/** The domain of a normalised email (after the last "@"). */
export const emailDomain = (email: string): string => email.slice(email.lastIndexOf("@") + 1);
