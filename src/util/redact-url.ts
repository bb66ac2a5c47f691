/**
 * A database URL fit for messages and logs: its password replaced by `***`. A start-up
 * error is often pasted into a ticket; the credentials must not go with it.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    // Not parseable: whatever sits between "//" and "@" may hold credentials.
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}

/** `text` with the URL, and its password on its own, replaced by their redacted forms. */
export function redactUrlIn(text: string, url: string): string {
  let out = text.replaceAll(url, redactUrl(url));
  try {
    const pw = new URL(url).password;
    if (pw) for (const p of new Set([pw, decodeURIComponent(pw)])) out = out.replaceAll(p, "***");
  } catch {}
  return out;
}
