/**
 * The support score at which a citation counts as backed by its quote (README "Claims you
 * can check"): the verifier counts `supported` with it and the web app marks sentences with
 * it (a copy there, src/web/client/claims/claim-match.ts, since the browser bundle takes only
 * types from the contract; a test holds the two equal).
 */
export const SUPPORTED_AT = 0.45;
