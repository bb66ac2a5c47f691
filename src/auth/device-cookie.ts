import { createHmac } from "node:crypto";
import { randomToken, safeEqual } from "../util/crypto.ts";

/** Set after a password sign-in; sent back only to the sign-in endpoint. */
export const DEVICE_COOKIE = "rq_device";
const PATH = "/api/v1/auth/login";
const MAX_AGE_S = 180 * 86_400;
// Domain separation: a MAC made for another purpose with the same secret never verifies here.
const PURPOSE = "rq-device.v1.";

/**
 * "This browser signed in to this email before" (OWASP's device cookies): a random device
 * id and an HMAC binding it to the email. Threat: an attacker's failed guesses — or another
 * client's behind the same proxy address — blocking a real user's sign-in; a known device
 * is counted on its own (login-throttle.ts). A forged or altered cookie, or one issued for
 * another email (the attacker's own account), is simply not a known device. No server state.
 */
export class DeviceCookies {
  constructor(private readonly secret: string) {}

  /** A fresh cookie value for a browser that has just signed in to `email` (normalised). */
  issue(email: string): string {
    const id = randomToken(16);
    return `${id}.${this.mac(email, id)}`;
  }

  /** The device id when `value` was issued for `email`, else null. */
  deviceFor(value: string | undefined, email: string): string | null {
    if (!value || value.length > 200) return null;
    const [id, mac, extra] = value.split(".");
    if (!id || !mac || extra !== undefined) return null;
    return safeEqual(mac, this.mac(email, id)) ? id : null;
  }

  private mac(email: string, id: string): string {
    return createHmac("sha256", this.secret).update(`${PURPOSE}${id}\n${email}`).digest("base64url");
  }
}

/** Set-Cookie for a device value: HttpOnly, only for the sign-in path, SameSite=Strict. */
export function deviceCookie(value: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${value}; Path=${PATH}; HttpOnly; SameSite=Strict; Max-Age=${MAX_AGE_S}${secure ? "; Secure" : ""}`;
}
