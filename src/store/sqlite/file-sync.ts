import { closeSync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

/** Flushes a file's bytes to the disk, then its folder's entry, so a rename into place survives a power cut. */
export function syncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a folder's entries (a rename in it); a platform that cannot open folders skips it. */
export function syncFolder(path: string): void {
  let fd: number;
  try {
    fd = openSync(dirname(path), "r");
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the file itself is synced.
  } finally {
    closeSync(fd);
  }
}
