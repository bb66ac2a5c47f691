/**
 * Threat: an upstream echoing our API key (or a token of its own) in an error body, which
 * we pass on to API clients, run timelines and logs. Upstream text is scrubbed here
 * before it goes anywhere.
 */

const MASK = "[redacted]";

// "Bearer abc…", "Basic abc…": what follows the scheme is the credential when it looks like one
// (long, with a digit or symbol), so prose such as "a Bearer token is required" survives.
const AUTH_SCHEME = /\b(Bearer|Basic)\s+(?=[^\s,;"'<>]*[\d_\-.=+/])[^\s,;"'<>]{8,}/gi;
// key=value and "key": "value" for the names credentials go by.
const NAMED =
  /\b((?:x-)?api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|subscription[_-]?token|client[_-]?secret|secret|password|token|authorization)(["']?\s*[=:]\s*["']?)[^\s"',;&<>]+/gi;
// Key shapes of the services we call or that upstreams commonly name (Tavily, OpenAI-style, Brave, Groq).
const KNOWN_SHAPES = /\b(?:tvly-|sk-|gsk_|BSA)[A-Za-z0-9_-]{8,}/g;
// Account and organisation ids (Groq's "organization `org_01h…`"): not credentials, but the operator's to share.
const ACCOUNT_IDS = /\b(org|user|proj)_[A-Za-z0-9]{6,}/g;
// Any long opaque run mixing letters and digits (hex keys, base64url tokens); words and DOIs don't match.
const OPAQUE = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g;

/**
 * `text` with credentials masked: every value we sent in a request header (`sent`, and
 * each long word of it, so "Bearer k" masks k alone too), then anything shaped like a
 * credential.
 */
export function scrubSecrets(text: string, sent: readonly string[] = []): string {
  let out = text;
  const values = new Set<string>();
  for (const v of sent) {
    if (v.trim().length >= 4) values.add(v.trim());
    for (const word of v.split(/\s+/)) if (word.length >= 8) values.add(word);
  }
  // Longest first, so a whole header value is masked before one of its words.
  for (const v of [...values].sort((a, b) => b.length - a.length)) out = out.split(v).join(MASK);
  return out
    .replace(AUTH_SCHEME, (_, scheme: string) => `${scheme} ${MASK}`)
    .replace(NAMED, (_, name: string, sep: string) => `${name}${sep}${MASK}`)
    .replace(KNOWN_SHAPES, MASK)
    .replace(ACCOUNT_IDS, (_, kind: string) => `${kind}_${MASK}`)
    .replace(OPAQUE, MASK);
}
