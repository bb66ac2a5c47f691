/**
 * The support score at which a citation counts as backed by its quote (README "Claims you
 * can check"): the verifier counts `supported` with it and the web app marks sentences with
 * it. Its own file, free of TypeBox, so the browser bundle can import it.
 */
export const SUPPORTED_AT = 0.45;
