import { sendTo, type Target } from "../helpers/server.ts";

/** What the sign-in tests look at in one answer. */
export interface AuthAnswer {
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  /** "name=value" of each Set-Cookie. */
  cookies: string[];
  /** The JSON body, or null. */
  body: unknown;
}

export const PASSWORD = "correct horse battery";

/** A fresh address under example.com. */
export const freshEmail = (tag = "u") => `${tag}${crypto.randomUUID().slice(0, 8)}@example.com`;

/** The cookie pair named `name` among an answer's cookies (for a Cookie header), or undefined. */
export const cookieNamed = (a: AuthAnswer, name: string) => a.cookies.find((c) => c.startsWith(`${name}=`));

/** POST a JSON body (or a raw one with its own content-type) to one of /api/v1/auth/*. */
export async function authPost(
  target: Target,
  path: "signup" | "login" | "logout" | "confirm" | "confirm/resend",
  body: unknown,
  headers: Record<string, string> = {},
): Promise<AuthAnswer> {
  const [base, send] = sendTo(target);
  const res = await send(`${base}/api/v1/auth/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const code = (parsed as { errors?: { code: string }[] } | null)?.errors?.[0]?.code;
  return {
    status: res.status,
    code,
    retryAfter: res.headers.get("retry-after"),
    cookies: res.headers.getSetCookie().map((c) => c.split(";")[0]!),
    body: parsed,
  };
}

/** Sign-up (a JSON body) from the forwarded address `from` (when the server trusts loopback). */
export const signupFrom = (base: Target, email: string, from?: string, extra: Record<string, string> = {}) =>
  authPost(base, "signup", { email, password: PASSWORD }, from ? { "x-forwarded-for": from, ...extra } : extra);

/** Sign-in from the forwarded address `from`, with optional extra headers (a Cookie). */
export const loginFrom = (
  base: Target,
  email: string,
  password: string,
  from?: string,
  extra: Record<string, string> = {},
) => authPost(base, "login", { email, password }, from ? { "x-forwarded-for": from, ...extra } : extra);
