/**
 * Where a worker script is, for the module at `moduleUrl` (its import.meta.url). In the compiled
 * binary (`bun run build` lists each worker as an entrypoint) entrypoints are stored relative to
 * their common folder, src/: `inSrc` is the script's path there. From a checkout it is found
 * at `beside`, relative to the asking module.
 */
export function workerUrl(moduleUrl: string, inSrc: string, beside: string): string | URL {
  return /\/\$bunfs\/|~BUN\//.test(moduleUrl) ? `./${inSrc}` : new URL(beside, moduleUrl);
}
