import { open } from "node:fs/promises";

type Bytes = ReadableWritablePair<Uint8Array, Uint8Array>;

const mib = (n: number) => `${Math.round(n / 1048576)} MiB`;

/**
 * Expands a gzip file into `to`, streamed (memory holds a chunk), stopping at `limit` bytes.
 * Threat: a gzip bomb (a few MB that expand to many GB): its expansion is cut at the limit and
 * the file refused, never read on. A file damaged part-way keeps what came before the damage,
 * as `corpus add` keeps the lines before it.
 */
export async function gunzipCapped(
  from: string,
  to: string,
  limit: number,
): Promise<{ tooLarge?: string; damaged?: string }> {
  const out = await open(to, "w");
  let written = 0;
  // lib.dom types these streams' writable side as BufferSource, which TS will not take for Uint8Array chunks.
  const reader = Bun.file(from)
    .stream()
    .pipeThrough(new DecompressionStream("gzip") as unknown as Bytes)
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return {};
      written += value.byteLength;
      if (written > limit) {
        await reader.cancel().catch(() => {});
        return {
          tooLarge: `expands past ${mib(limit)} (a gzip bomb?): not imported; split it, or upload it uncompressed`,
        };
      }
      await out.write(value);
    }
  } catch (e) {
    return {
      damaged: `the gzip data is damaged after ${written.toLocaleString("en")} bytes (${(e as Error).message}): the rest is left out`,
    };
  } finally {
    await out.close();
  }
}
