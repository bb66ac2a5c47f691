/** Token estimate from text length (src/contract/envelope.ts usage: estimates, not model counts): ~4 chars a token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Host of a URL for progress details, or the URL itself when it doesn't parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** Rounded milliseconds since `t0` (performance.now()). */
export const since = (t0: number): number => Math.round(performance.now() - t0);
