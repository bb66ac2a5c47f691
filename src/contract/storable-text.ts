import { entriesOf, findInJson, isContainer, pathOf } from "./json-walk.ts";

/**
 * Text every backend can hold (docs/decisions/0100-text-a-database-cannot-hold.md). PostgreSQL
 * refuses U+0000 in text and any string that is not valid UTF-8, which a JavaScript string
 * with an unpaired surrogate ("\ud800", a JSON escape away) becomes; SQLite takes both and
 * gives back something else. Threat: one caller's string failing writes (a 500, an aborted
 * import, a `db copy` that cannot finish) for every user of the database.
 *
 * What a caller sends is refused with `unstorableAt` at the door (the request-body parser,
 * the URL, MCP's arguments); what comes from elsewhere (documents, pages, answers, upstream
 * messages) is stored cleaned by `storable`: NUL dropped, an unpaired surrogate made U+FFFD.
 */

const SUSPECT = /[\0\ud800-\udfff]/;

/** True when the string holds neither NUL nor an unpaired surrogate. */
export function isStorableText(s: string): boolean {
  return !SUSPECT.test(s) || (!s.includes("\0") && s.isWellFormed());
}

/**
 * The string with each NUL made `nul` (dropped by default) and each unpaired surrogate made
 * U+FFFD; the same string when already clean.
 */
export function storableText(s: string, nul = ""): string {
  return isStorableText(s) ? s : s.replaceAll("\0", nul).toWellFormed();
}

/**
 * The value with every string in it (object keys too) made storable; the same value, not a
 * copy, when nothing needed cleaning (a run's timeline is walked on every finish).
 */
export function storable<T>(value: T, nul = ""): T {
  // Nearly always clean: looked at without copying first (a run's timeline is walked on every finish).
  return isClean(value) ? value : (clean(value, nul) as T);
}

/** A string (object keys too) that is not storable text, first in document order. */
const unstorableStep = (v: unknown) =>
  findInJson(
    v,
    (s) =>
      (typeof s.key === "string" && !isStorableText(s.key)) ||
      (typeof s.value === "string" && !isStorableText(s.value)),
  );

/** Whether every string in it is storable: allocation-free on the hot path, in any order, never recursing. */
function isClean(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (!isStorableText(v)) return false;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (isContainer(v)) {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (!isStorableText(k)) return false;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return true;
}

/** A container being cleaned: its entries, and their cleaned values so far. */
interface Cleaning {
  src: object;
  entries: [string | number, unknown][];
  out: unknown[];
}

const cleanLeaf = (v: unknown, nul: string) => (typeof v === "string" ? storableText(v, nul) : v);

/** The container from its cleaned entries: itself when none changed. */
function rebuilt(c: Cleaning, nul: string): unknown {
  if (Array.isArray(c.src)) return c.out.some((x, i) => x !== c.entries[i]![1]) ? c.out : c.src;
  const keys = c.entries.map(([k]) => storableText(String(k), nul));
  const changed = keys.some((k, i) => k !== c.entries[i]![0] || c.out[i] !== c.entries[i]![1]);
  return changed ? Object.fromEntries(keys.map((k, i) => [k, c.out[i]])) : c.src;
}

/** The value cleaned, containers copied only where something in them changed; an explicit stack, as findInJson. */
function clean(root: unknown, nul: string): unknown {
  if (!isContainer(root)) return cleanLeaf(root, nul);
  const open = (src: object): Cleaning => ({ src, entries: entriesOf(src), out: [] });
  const stack = [open(root)];
  for (;;) {
    const top = stack.at(-1)!;
    if (top.out.length < top.entries.length) {
      const child = top.entries[top.out.length]![1];
      if (isContainer(child)) stack.push(open(child));
      else top.out.push(cleanLeaf(child, nul));
      continue;
    }
    stack.pop();
    const done = rebuilt(top, nul);
    const parent = stack.at(-1);
    if (!parent) return done;
    parent.out.push(done);
  }
}

/**
 * Where in a value sent by a caller the first string that is not storable text sits, as the
 * caller would name it (`query`, `items[2].title`, `a key of filters`); null when there is none.
 */
export function unstorableAt(value: unknown, at?: string): string | null {
  const step = unstorableStep(value);
  if (!step) return null;
  if (typeof step.key === "string" && !isStorableText(step.key)) {
    const container = pathOf(step.parent!, at);
    return container ? `a key of ${container}` : "a key";
  }
  return pathOf(step, at) ?? "the value";
}

/** The refusal's words for text found by `unstorableAt`. */
export function unstorableMessage(at: string): string {
  return `${at} holds U+0000 (NUL) or an unpaired surrogate: not accepted in text`;
}
