import { createHmac } from "node:crypto";
import { AppError } from "../../contract/errors.ts";
import { safeEqual } from "../../util/crypto.ts";

/**
 * What one browser carries from /oidc/start to /oidc/callback.
 *
 * Why a signed cookie rather than server memory keyed by state: the cookie binds the
 * flow to the browser that started it (an attacker can't make a victim finish the
 * attacker's sign-in — login CSRF — because the victim lacks the cookie), anonymous
 * /start calls cost the server no memory, and a restart doesn't break sign-ins in
 * progress. The one thing kept in memory is the list of states already consumed, and
 * only for callbacks carrying a valid signature, until the cookie would expire anyway.
 */
export interface FlowState {
  /** CSRF binding between the authorization request and its response. */
  state: string;
  /** Binds the ID token to this flow (a token minted for another flow is refused). */
  nonce: string;
  /** PKCE code verifier: a stolen authorization code is useless without it. */
  verifier: string;
  /** Epoch ms after which the flow is refused. */
  exp: number;
}

/** How long a user may spend at the identity provider (the cookie's Max-Age too). */
export const FLOW_TTL_MS = 10 * 60_000;

// Domain separation: a MAC made for another purpose with the same secret never verifies here.
const PURPOSE = "rq-oidc-flow.v1.";

/**
 * Seals and opens flow states, and lets each be used once.
 * Threat: a forged or altered state/nonce/verifier (any change breaks the HMAC-SHA256)
 * and a replayed callback (a state is consumed on first use; `exp` bounds the rest).
 */
export class FlowStates {
  private readonly consumed = new Map<string, number>();

  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh state bundle for one sign-in, expiring after FLOW_TTL_MS. */
  create(fields: Omit<FlowState, "exp">): FlowState {
    return { ...fields, exp: this.now() + FLOW_TTL_MS };
  }

  /** The cookie value: base64url JSON, a dot, and its HMAC-SHA256. */
  seal(flow: FlowState): string {
    const body = Buffer.from(JSON.stringify(flow)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The flow in a cookie value, or null when missing, altered, malformed or expired. */
  open(value: string | undefined): FlowState | null {
    if (!value || value.length > 2048) return null;
    const [body, mac, extra] = value.split(".");
    if (!body || !mac || extra !== undefined || !safeEqual(mac, this.mac(body))) return null;
    try {
      const f = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<FlowState>;
      const ok =
        typeof f.state === "string" &&
        typeof f.nonce === "string" &&
        typeof f.verifier === "string" &&
        typeof f.exp === "number";
      return ok && f.exp! > this.now() ? (f as FlowState) : null;
    } catch {
      return null;
    }
  }

  /**
   * Opens the cookie, checks it belongs to the callback's `state`, and consumes it.
   * Throws AppError("invalid_state") otherwise — including for the second use.
   */
  take(cookie: string | undefined, returnedState: string | null): FlowState {
    const flow = this.open(cookie);
    if (!flow || !returnedState || !safeEqual(flow.state, returnedState) || this.consumed.has(flow.state)) {
      throw new AppError("invalid_state", "This sign-in link has expired or was already used. Please start again.");
    }
    this.prune();
    this.consumed.set(flow.state, flow.exp);
    return flow;
  }

  /** Consumed states are only needed until their cookie would have expired. */
  private prune(): void {
    const now = this.now();
    for (const [state, exp] of this.consumed) if (exp <= now) this.consumed.delete(state);
  }

  private mac(body: string): string {
    return createHmac("sha256", this.secret)
      .update(PURPOSE + body)
      .digest("base64url");
  }
}
