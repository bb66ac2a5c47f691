import { readFileSync } from "node:fs";
import { readUrl } from "../research/read/read-url.ts";
import { watchedParser } from "../research/read/watched-parser.ts";
import { decodeText } from "../text/charset.ts";
import { extractMainText } from "../text/html-extract.ts";
import type { CommandInput } from "./command.ts";
import { say } from "./terminal.ts";

/** `extract FILE|URL|-`: the main text the engine reads from one page (same extractor). */
export async function extractCommand({ cfg, options, args }: CommandInput): Promise<number> {
  const target = args[0]!;
  const allowPrivate = cfg.FETCH_ALLOW_PRIVATE;
  let title = "",
    text: string;
  if (/^https?:\/\//i.test(target)) {
    const parser = watchedParser(cfg.PARSE_MEMORY_MB);
    try {
      const doc = await readUrl(target, {
        signal: AbortSignal.timeout(30_000),
        allowPrivate,
        timeoutMs: 20_000,
        parser,
      });
      title = doc.title;
      text = doc.text;
    } finally {
      parser.close();
    }
  } else {
    const bytes = target === "-" ? new Uint8Array(await Bun.stdin.arrayBuffer()) : new Uint8Array(readFileSync(target));
    const x = extractMainText(decodeText(bytes, ""));
    title = x.title;
    text = x.text;
  }
  if (options.json) process.stdout.write(JSON.stringify({ title, text }) + "\n");
  else say(`${title ? `# ${title}\n\n` : ""}${text}\n`);
  return 0;
}
