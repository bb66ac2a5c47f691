import { timingSafeEqual } from "node:crypto";

/** SHA-256 hex digest of a string or bytes (the one-shot form: no hasher object for the GC to finalise). */
export function sha256Hex(s: string | Uint8Array): string {
  return Bun.CryptoHasher.hash("sha256", s, "hex");
}

/** `n` random bytes as base64url without padding. */
export function randomToken(n: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(n))).toString("base64url");
}

/** Constant-time string comparison (avoids leaking a secret through timing). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a),
    bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
