/**
 * Where a worker script is, `inSrc` its path under src/ (`"corpus/search/search-worker.ts"`): the
 * one place every pool and the checkpointer find theirs. In the compiled binary (`bun run build`
 * lists each worker as an entrypoint) entrypoints are stored relative to their common folder,
 * src/, and every module is bundled into one, so no module's own URL says where it was; from a
 * checkout the script is found from this file's place in src/.
 */
export function workerUrl(inSrc: string): string | URL {
  return /\/\$bunfs\/|~BUN\//.test(import.meta.url) ? `./${inSrc}` : new URL(`../${inSrc}`, import.meta.url);
}
