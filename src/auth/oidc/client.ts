import * as oauth from "oauth4webapi";
import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import type { FlowState } from "./flow-state.ts";

/** Settings of the identity provider (from the OIDC_* variables). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  redirectUri: string;
}

/** What we use from a verified sign-in. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
}

// Some providers (AWS Cognito among them) send email_verified as the string "true".
const isTrue = (v: unknown): boolean => v === true || v === "true";

/** Every request to the provider gives up after this long (an intranet IdP may hang). */
const TIMEOUT_MS = 10_000;

/** The settings when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set, else null. */
export function oidcSettings(cfg: Config, redirectUri: string): OidcSettings | null {
  if (!cfg.OIDC_ISSUER || !cfg.OIDC_CLIENT_ID || !cfg.OIDC_CLIENT_SECRET) return null;
  // Without `openid` the provider would answer plain OAuth 2.0 and no ID token would come back.
  const scopes = cfg.OIDC_SCOPES.split(/\s+/).filter(Boolean);
  if (!scopes.includes("openid")) scopes.unshift("openid");
  return {
    issuer: cfg.OIDC_ISSUER,
    clientId: cfg.OIDC_CLIENT_ID,
    clientSecret: cfg.OIDC_CLIENT_SECRET,
    scopes: scopes.join(" "),
    redirectUri,
  };
}

/**
 * The authorization code flow with PKCE (S256), state and nonce, done by oauth4webapi:
 * no JWT is parsed or checked by hand here.
 */
export class OidcClient {
  private server: Promise<oauth.AuthorizationServer> | null = null;
  private readonly client: oauth.Client;
  // Plain http only when the operator configured an http issuer (a lab or intranet IdP);
  // an https issuer keeps oauth4webapi's refusal of http endpoints in its metadata.
  private readonly insecure: boolean;

  constructor(private readonly s: OidcSettings) {
    this.client = { client_id: s.clientId };
    this.insecure = new URL(s.issuer).protocol === "http:";
  }

  /** Options of every outgoing request: a fresh 10 s deadline, http only when allowed. */
  private opts(): { signal: AbortSignal; [oauth.allowInsecureRequests]?: boolean } {
    return {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      ...(this.insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    };
  }

  /**
   * Discovery from the issuer's /.well-known/openid-configuration, cached once it
   * succeeds. The document's `issuer` must equal OIDC_ISSUER (checked by oauth4webapi).
   */
  private discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(this.s.issuer);
    this.server ??= oauth
      .discoveryRequest(issuer, { algorithm: "oidc", ...this.opts() })
      .then((res) => oauth.processDiscoveryResponse(issuer, res))
      .catch((e: unknown) => {
        this.server = null; // a provider that was down is asked again next time
        throw e;
      });
    return this.server;
  }

  /** Where to send the browser for a flow whose secrets the caller keeps. */
  async authorizationUrl(flow: FlowState): Promise<string> {
    const as = await this.discover();
    if (!as.authorization_endpoint) throw new Error("the provider's metadata has no authorization_endpoint");
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.s.clientId,
      redirect_uri: this.s.redirectUri,
      response_type: "code",
      scope: this.s.scopes,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: "S256",
    }).toString();
    return url.href;
  }

  /**
   * Exchanges the code and verifies the ID token: signature against the provider's JWKS,
   * issuer, audience, expiry and nonce. Consent denied → AppError("access_denied");
   * anything else the provider or the checks refuse is thrown as is (oidc_failed upstream).
   */
  async finish(callbackUrl: URL, flow: FlowState): Promise<OidcIdentity> {
    const as = await this.discover();
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, this.client, callbackUrl, flow.state);
    } catch (e) {
      if (e instanceof oauth.AuthorizationResponseError && e.error === "access_denied") {
        throw new AppError("access_denied", "Sign-in was cancelled at the identity provider.");
      }
      throw e;
    }
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      this.client,
      this.clientAuth(as),
      params,
      this.s.redirectUri,
      flow.verifier,
      this.opts(),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, this.client, res, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    // The token came straight from the provider, but we still check its signature so a
    // compromised hop (proxy, TLS-terminating middlebox) can't substitute claims.
    await oauth.validateApplicationLevelSignature(as, res, this.opts());
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    let email = typeof claims.email === "string" ? claims.email : undefined;
    let verified = isTrue(claims.email_verified);
    // Many providers keep scope claims out of the ID token; UserInfo has them, and
    // oauth4webapi refuses a UserInfo answer about another subject.
    if (!email && as.userinfo_endpoint && tokens.access_token) {
      const ui = await oauth.userInfoRequest(as, this.client, tokens.access_token, this.opts());
      const info = await oauth.processUserInfoResponse(as, this.client, claims.sub, ui);
      email = typeof info.email === "string" ? info.email : undefined;
      verified = isTrue(info.email_verified);
    }
    return { issuer: claims.iss, subject: claims.sub, email, emailVerified: verified };
  }

  /** client_secret_basic unless the provider only takes client_secret_post. */
  private clientAuth(as: oauth.AuthorizationServer): oauth.ClientAuth {
    const methods = as.token_endpoint_auth_methods_supported;
    return methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
      ? oauth.ClientSecretPost(this.s.clientSecret)
      : oauth.ClientSecretBasic(this.s.clientSecret);
  }
}
