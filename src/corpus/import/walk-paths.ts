import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, sep } from "node:path";

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
  /** Entries passed over with a reason (a link leading out of the folder given). */
  skipped: { root: number; file: string; message: string }[];
}

interface Walk {
  root: number;
  /** The real path of the folder given. */
  real: string;
  followLinks: boolean;
  out: WalkResult;
  /** Real folders visited: each once, so link loops end. */
  seen: Set<string>;
}

/**
 * The files under the paths given, in a stable order. A folder is walked recursively and each
 * file's doc_id is its path relative to that folder ("notes/2024/q1.md", with "/" on every
 * system); a file given directly is known by its base name. Hidden entries (".git", ".DS_Store")
 * are passed over; symbolic links are followed while they stay inside the folder given, each
 * real folder visited once (no loops). Threat: `notes.txt -> /etc/research-query.env` in a
 * folder someone else filled would import a secret; with `followLinks` every link is followed.
 */
export function walkPaths(paths: readonly string[], o: { followLinks?: boolean } = {}): WalkResult {
  const out: WalkResult = { files: [], missing: [], skipped: [] };
  paths.forEach((given, root) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(given);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      out.missing.push({ root, message: code === "ENOENT" ? "no such file or folder" : `cannot be read (${code})` });
      return;
    }
    if (st.isDirectory()) {
      const real = realpathSync(given);
      walkFolder(given, "", { root, real, followLinks: o.followLinks === true, out, seen: new Set([real]) });
    } else if (st.isFile()) out.files.push({ file: given, docId: basename(given), root, bytes: st.size });
    else out.missing.push({ root, message: "not a regular file or folder" });
  });
  return out;
}

function walkFolder(dir: string, rel: string, w: Walk): void {
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
    let link: boolean;
    let real: string;
    try {
      link = lstatSync(file).isSymbolicLink();
      st = statSync(file);
      real = link || st.isDirectory() ? realpathSync(file) : file;
    } catch {
      continue; // a dangling link
    }
    if (link && !w.followLinks && !inside(real, w.real)) {
      w.out.skipped.push({
        root: w.root,
        file,
        message: `a link leading out of the folder given (to ${real}): not followed without --follow-links`,
      });
      continue;
    }
    if (st.isFile()) w.out.files.push({ file, docId: id, root: w.root, bytes: st.size });
    else if (st.isDirectory()) {
      if (w.seen.has(real)) continue;
      w.seen.add(real);
      walkFolder(file, id, w);
    }
  }
}

/** Whether `real` is the folder `top` or lies under it (both real paths). */
function inside(real: string, top: string): boolean {
  return real === top || real.startsWith(top.endsWith(sep) ? top : top + sep);
}
