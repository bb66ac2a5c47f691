import * as oauth from "oauth4webapi";
import { AppError } from "../../errors.ts";

/** Settings of the identity provider (from OIDC_* variables). */
export interface OidcSettings { issuer: string; clientId: string; clientSecret: string; scopes: string; redirectUri: string }

/** What one browser carries between start and callback (in a signed cookie). */
export interface FlowState { state: string; nonce: string; verifier: string; exp: number }

/** Claims we use from a verified ID token. */
export interface OidcIdentity { issuer: string; subject: string; email?: string; emailVerified: boolean }

/**
 * The authorization code flow with PKCE (S256), state and nonce, through oauth4webapi.
 * Plain-http issuers are allowed only when OIDC_ISSUER itself is http (a lab or an
 * intranet IdP the operator chose); https issuers get TLS checks.
 */
export class OidcClient {
  private server: Promise<oauth.AuthorizationServer> | null = null;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;
  private readonly insecure: boolean;

  constructor(private readonly s: OidcSettings) {
    this.client = { client_id: s.clientId };
    this.auth = oauth.ClientSecretBasic(s.clientSecret);
    this.insecure = s.issuer.startsWith("http:");
  }

  private opts() {
    return { signal: AbortSignal.timeout(10_000), ...(this.insecure ? { [oauth.allowInsecureRequests]: true } : {}) };
  }

  /** Discovery from /.well-known/openid-configuration, cached (retried after a failure). */
  private discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(this.s.issuer);
    this.server ??= oauth.discoveryRequest(issuer, { algorithm: "oidc", ...this.opts() })
      .then((r) => oauth.processDiscoveryResponse(issuer, r))
      .catch((e) => { this.server = null; throw new AppError("oidc_failed", `the identity provider could not be reached: ${(e as Error).message}`); });
    return this.server;
  }

  /** A fresh flow: where to send the browser, and the state to keep. */
  async start(): Promise<{ url: string; flow: FlowState }> {
    const as = await this.discover();
    const flow: FlowState = { state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), verifier: oauth.generateRandomCodeVerifier(), exp: Date.now() + 10 * 60_000 };
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: this.s.clientId, redirect_uri: this.s.redirectUri, response_type: "code", scope: this.s.scopes,
      state: flow.state, nonce: flow.nonce, code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier), code_challenge_method: "S256",
    }).toString();
    return { url: url.href, flow };
  }

  /** Exchanges the code and verifies the ID token: signature (JWKS), issuer, audience, expiry, nonce. */
  async finish(callbackUrl: URL, flow: FlowState): Promise<OidcIdentity> {
    const as = await this.discover();
    const params = oauth.validateAuthResponse(as, this.client, callbackUrl, flow.state);
    const res = await oauth.authorizationCodeGrantRequest(as, this.client, this.auth, params, this.s.redirectUri, flow.verifier, this.opts());
    const tokens = await oauth.processAuthorizationCodeResponse(as, this.client, res, { expectedNonce: flow.nonce, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(as, res, this.opts());
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    let email = typeof claims.email === "string" ? claims.email : undefined;
    let verified = claims.email_verified === true;
    // Many providers keep scope claims out of the ID token; UserInfo has them, bound to the same subject.
    if (!email && as.userinfo_endpoint && tokens.access_token) {
      const ui = await oauth.userInfoRequest(as, this.client, tokens.access_token, this.opts());
      const info = await oauth.processUserInfoResponse(as, this.client, claims.sub, ui);
      email = typeof info.email === "string" ? info.email : undefined;
      verified = info.email_verified === true;
    }
    return { issuer: claims.iss, subject: claims.sub, email, emailVerified: verified };
  }
}
