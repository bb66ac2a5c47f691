import { createHmac } from "node:crypto";
import { safeEqual } from "../../util/crypto.ts";

/**
 * A value carried by the browser but only readable by us: base64url JSON plus an
 * HMAC-SHA256 over it. Threat: a forged or altered sign-in state (state, nonce, PKCE
 * verifier) — any change breaks the MAC; `exp` bounds replays in time.
 */
export function sign(payload: Record<string, unknown>, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

export function verify<T extends { exp: number }>(value: string | undefined, secret: string, now = Date.now()): T | null {
  if (!value) return null;
  const [body, mac] = value.split(".");
  if (!body || !mac || !safeEqual(mac, createHmac("sha256", secret).update(body).digest("base64url"))) return null;
  try {
    const data = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    return typeof data.exp === "number" && data.exp > now ? data : null;
  } catch { return null; }
}
