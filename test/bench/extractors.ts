import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

/** Main text of a page, or null when the extractor gives up. */
export type Extractor = (html: string) => string | null;

/** Mozilla Readability on the DOM `parse` builds; null when it finds nothing or throws. */
export const readabilityOn =
  (parse: (html: string) => Document): Extractor =>
  (html) => {
    try {
      return new Readability(parse(html)).parse()?.textContent ?? null;
    } catch {
      return null;
    }
  };

/** Readability on linkedom: the same parser as ours, so the throughput ratio compares extractors. */
export const onLinkedom = readabilityOn((html) => parseHTML(html).document as unknown as Document);

/** Runs an extractor over all pages `rounds` times; its outputs and the median MB/s. */
export function timed(pages: { id: string; html: string }[], bytes: number, fn: Extractor, rounds: number) {
  const out: Record<string, string | null> = {};
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const p of pages) out[p.id] = fn(p.html);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { out, mbps: bytes / 1e6 / (times[Math.floor(times.length / 2)]! / 1000) };
}
