import type { Store } from "../store/types.ts";
import { type Account, getAccount } from "./accounts.ts";
import { resolveSession, SESSION_COOKIE } from "./sessions.ts";

/** One cookie's value from the request's Cookie header. */
export function cookieValue(request: Request, name: string): string | undefined {
  const raw = request.headers.get("cookie");
  if (!raw) return undefined;
  for (const part of raw.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The auth_token cookie. */
export const sessionToken = (request: Request): string | undefined => cookieValue(request, SESSION_COOKIE);

/** The signed-in account, or null. API keys are deliberately not looked at (README "The API"). */
export async function sessionAccount(store: Store, request: Request): Promise<Account | null> {
  const id = await resolveSession(store, sessionToken(request));
  return id ? getAccount(store, id) : null;
}

/** Set-Cookie value for a session (HttpOnly, SameSite=Lax, Secure behind https). */
export function sessionCookie(token: string, expires: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${expires.toUTCString()}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${secure ? "; Secure" : ""}`;
}
