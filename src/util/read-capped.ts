/**
 * Streams a response's (or a request's) body and stops at `maxBytes` (cancelling the rest), so a huge or
 * endless upstream answer never sits in memory. Over the cap it throws what `tooLarge`
 * makes: each caller keeps its own typed error.
 */
export async function readBodyCapped(
  res: { body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}
