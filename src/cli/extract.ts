import { readFileSync } from "node:fs";
import { AppError } from "../contract/errors.ts";
import { decodeText } from "../research/read/charset.ts";
import { extractMainText } from "../research/read/html-extract.ts";
import { readUrl } from "../research/read/read-url.ts";
import type { Args } from "./args.ts";

/** `extract FILE|URL|-`: the main text the engine reads from one page (same extractor). */
export async function extractCommand(args: Args, allowPrivate: boolean): Promise<number> {
  const target = args.positional[1];
  if (!target) throw new AppError("invalid_request", "usage: research-query extract FILE|URL|-");
  let title = "",
    text: string;
  if (/^https?:\/\//i.test(target)) {
    const doc = await readUrl(target, { signal: AbortSignal.timeout(30_000), allowPrivate, timeoutMs: 20_000 });
    title = doc.title;
    text = doc.text;
  } else {
    const bytes = target === "-" ? new Uint8Array(await Bun.stdin.arrayBuffer()) : new Uint8Array(readFileSync(target));
    const x = extractMainText(decodeText(bytes, ""));
    title = x.title;
    text = x.text;
  }
  if (args.flags.json) process.stdout.write(JSON.stringify({ title, text }) + "\n");
  else process.stdout.write(`${title ? `# ${title}\n\n` : ""}${text}\n`);
  return 0;
}
