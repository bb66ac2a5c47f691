import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../../config/schema.ts";

/** A spooled file older than this that no upload row names is left over from a crash: swept. */
const STRAY_MS = 60 * 60 * 1000;

/**
 * Where uploaded files wait to be imported (UPLOAD_DIR): one file each, named by a random id
 * and the ending of its format (`3f2c….pdf`), never by the name it was uploaded under — that
 * is data (README "Collections for a team"), and a file system's rules for names differ.
 */
export interface Spool {
  readonly root: string;
  /** A new file's spool name (what the upload row keeps) and its path. */
  create(ending: string): { name: string; path: string };
  path(name: string): string;
  exists(name: string): boolean;
  remove(name: string): void;
  /** Removes files no row names and older than an hour (an upload in flight has no row yet). */
  sweep(named: Iterable<string>, nowMs?: number): number;
  /** Removes a temporary root (an in-memory database's) with what is in it. */
  close(): void;
}

/** UPLOAD_DIR, or uploads/ beside the SQLite file, ./data/uploads with PostgreSQL, a temporary folder for :memory:. */
function rootOf(cfg: Config): { root: string; temporary: boolean } {
  if (cfg.UPLOAD_DIR) return { root: resolve(cfg.UPLOAD_DIR), temporary: false };
  if (cfg.DATABASE_URL) return { root: resolve("./data/uploads"), temporary: false };
  if (cfg.DATABASE_PATH === ":memory:") return { root: mkdtempSync(join(tmpdir(), "rq-uploads-")), temporary: true };
  return { root: join(dirname(resolve(cfg.DATABASE_PATH)), "uploads"), temporary: false };
}

export function openSpool(cfg: Config): Spool {
  const { root, temporary } = rootOf(cfg);
  mkdirSync(root, { recursive: true });
  // Spool names are ours (a UUID and a known ending): nothing a client sent reaches a path.
  const path = (name: string) => join(root, name);
  const exists = (name: string) => {
    try {
      return statSync(path(name)).isFile();
    } catch {
      return false;
    }
  };
  return {
    root,
    create(ending) {
      const name = `${crypto.randomUUID()}${ending}`;
      return { name, path: path(name) };
    },
    path,
    exists,
    remove: (name) => rmSync(path(name), { force: true }),
    sweep(named, nowMs = Date.now()) {
      const keep = new Set(named);
      let n = 0;
      for (const name of readdirSync(root)) {
        if (keep.has(name)) continue;
        try {
          if (nowMs - statSync(path(name)).mtimeMs < STRAY_MS) continue;
          rmSync(path(name), { force: true, recursive: true });
          n++;
        } catch {
          /* gone meanwhile */
        }
      }
      return n;
    },
    close() {
      if (temporary) rmSync(root, { recursive: true, force: true });
    },
  };
}
