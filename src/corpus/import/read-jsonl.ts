import { isStorableText, unstorableMessage } from "../../contract/storable-text.ts";
import { capTitle } from "../../text/title.ts";
import { sha256Hex } from "../../util/crypto.ts";
import type { ReadDocument } from "./import-types.ts";
import { gzipLimit, jsonlLines, uncompressedSize } from "./jsonl-lines.ts";
import { capChars } from "./read-capped.ts";
import type { FileEntry } from "./walk-paths.ts";

export type JsonlItem = { doc: ReadDocument; warnings: string[] } | { bad: string; line: number };

const MAX_ID = 500;

function httpUrl(u: unknown): string | null {
  if (typeof u !== "string" || !u) return null;
  try {
    return /^https?:$/.test(new URL(u).protocol) ? u : null;
  } catch {
    return null;
  }
}

/** One JSONL line as a document `{id, title, text, url?}` (BEIR's `_id` too), or what is wrong with it. */
function record(line: string, n: number, entry: FileEntry, maxChars: number): JsonlItem | null {
  if (!line.trim()) return null;
  let r: unknown;
  try {
    r = JSON.parse(line);
  } catch (e) {
    return { bad: `not JSON (${(e as Error).message})`, line: n };
  }
  if (typeof r !== "object" || r === null || Array.isArray(r)) return { bad: "not a JSON object", line: n };
  const o = r as Record<string, unknown>;
  const rawId = o.id ?? o._id;
  const id = typeof rawId === "number" && Number.isFinite(rawId) ? String(rawId) : rawId;
  if (typeof id !== "string" || !id.trim()) return { bad: 'no "id" (a string or a number)', line: n };
  if (id.length > MAX_ID) return { bad: `"id" longer than ${MAX_ID} characters`, line: n };
  // An id is a name (citations, paths): not cleaned like the text (the store does that), so never another's.
  if (!isStorableText(id)) return { bad: unstorableMessage('"id"'), line: n };
  if (o.text !== undefined && typeof o.text !== "string") return { bad: '"text" is not a string', line: n };
  if (o.title !== undefined && o.title !== null && typeof o.title !== "string")
    return { bad: '"title" is not a string', line: n };
  const rawTitle = ((o.title as string | undefined) ?? "").trim();
  const title = capTitle(rawTitle);
  const body = (o.text as string | undefined) ?? "";
  if (!body.trim() && !title) return { bad: `no text for id ${id}`, line: n };
  const warnings: string[] = [];
  const url = httpUrl(o.url);
  if (o.url !== undefined && o.url !== null && o.url !== "" && !url)
    warnings.push('"url" is not an http(s) URL: left out');
  const capped = capChars(body.trim() ? body : rawTitle, maxChars);
  if (capped.cut) warnings.push(`text longer than ${maxChars.toLocaleString("en")} characters: cut there`);
  return {
    warnings,
    doc: {
      docId: id,
      title: title || id,
      text: capped.text,
      url,
      path: entry.file,
      format: "jsonl",
      contentHash: sha256Hex(line),
      truncated: capped.cut,
      line: n,
    },
  };
}

/**
 * The documents of a JSONL file, one per line, streamed (a .jsonl.gz is never held whole);
 * `onShare` is told the share of the file read so far.
 * A bad line is reported with its number and skipped; the next line is read as usual.
 */
export async function* readJsonl(
  entry: FileEntry,
  gz: boolean,
  maxChars: number,
  onShare: (share: number) => void,
): AsyncGenerator<JsonlItem> {
  const total = uncompressedSize(entry.file, entry.bytes, gz);
  // JSON escapes ("\u00e9") can take six characters for one: room for a capped text and its title.
  const maxLine = maxChars * 6 + 65_536;
  for await (const l of jsonlLines(entry.file, gz, maxLine, gzipLimit(entry.bytes))) {
    onShare(total ? Math.min(1, l.offset / total) : 1);
    if (l.tooLong) yield { bad: `line longer than ${maxLine.toLocaleString("en")} characters`, line: l.n };
    else {
      const item = record(l.text, l.n, entry, maxChars);
      if (item) yield item;
    }
  }
}
