import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** One file to read, with the doc_id it gets unless it is JSONL (whose records carry their own). */
export interface FileEntry {
  file: string;
  docId: string;
  /** Index of the path given that led to it. */
  root: number;
  bytes: number;
}

export interface WalkResult {
  files: FileEntry[];
  /** A path given that cannot be read at all, by its index. */
  missing: { root: number; message: string }[];
}

/**
 * The files under the paths given, in a stable order. A folder is walked recursively and each
 * file's doc_id is its path relative to that folder ("notes/2024/q1.md", with "/" on every
 * system); a file given directly is known by its base name. Hidden entries (".git", ".DS_Store")
 * are passed over; symbolic links are followed, each real folder visited once (no loops).
 */
export function walkPaths(paths: readonly string[]): WalkResult {
  const files: FileEntry[] = [];
  const missing: WalkResult["missing"] = [];
  paths.forEach((given, root) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(given);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      missing.push({ root, message: code === "ENOENT" ? "no such file or folder" : `cannot be read (${code})` });
      return;
    }
    if (st.isDirectory()) walkFolder(given, "", root, files, new Set([realpathSync(given)]));
    else if (st.isFile()) files.push({ file: given, docId: basename(given), root, bytes: st.size });
    else missing.push({ root, message: "not a regular file or folder" });
  });
  return { files, missing };
}

function walkFolder(dir: string, rel: string, root: number, out: FileEntry[], seen: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return; // an unreadable subfolder: its files are simply not there (the path given still counts)
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const file = join(dir, name);
    const id = rel ? `${rel}/${name}` : name;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(file);
    } catch {
      continue; // a dangling link
    }
    if (st.isFile()) out.push({ file, docId: id, root, bytes: st.size });
    else if (st.isDirectory()) {
      const real = realpathSync(file);
      if (seen.has(real)) continue;
      seen.add(real);
      walkFolder(file, id, root, out, seen);
    }
  }
}
