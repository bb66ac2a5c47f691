import { AppError } from "../../contract/errors.ts";

/**
 * A request body's chunks as they arrive, each told to `onBytes` (which may throw to stop), with
 * at most `idleMs` between two. Threat: a body sent a byte at a time, or not at all, holding a
 * connection and a spooled file open. Stopping early cancels the rest of the body.
 */
export async function* timedBytes(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  onBytes: (n: number) => void,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new AppError(
                "upload_incomplete",
                `no bytes of the upload arrived for ${idleMs / 1000} s: nothing was stored`,
              ),
            ),
          idleMs,
        );
      });
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await Promise.race([reader.read(), late]);
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      onBytes(next.value.byteLength);
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
