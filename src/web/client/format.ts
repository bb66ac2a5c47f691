/**
 * Numbers, counts and sizes as the app writes them, one way on every page
 * (docs/decisions/0152-one-number-and-size-format.md): digits grouped in English, as the
 * prose around them is; a count agrees with its noun; sizes in binary units (KiB, MiB), the
 * units the server's limits and messages use. A number and its unit are joined by a no-break
 * space: "50" at a line's end and "MiB" on the next read as two things.
 */

/** U+00A0: the line never breaks between a number and its unit. */
const NBSP = "\u00a0";

const NUMBER = new Intl.NumberFormat("en");
const PLURAL = new Intl.PluralRules("en");
/** Up to one decimal, none when it is .0: "1.5 MiB", "50 MiB". */
const SIZE = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
const BINARY = ["KiB", "MiB", "GiB", "TiB"];

/** 5183 → "5,183"; 0.5 → "0.5". */
export function fmtNumber(n: number): string {
  return NUMBER.format(n);
}

/** A count with its noun: "1 call", "2 calls", "5,183 documents"; `many` for nouns whose plural is not noun + s. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtNumber(n)} ${PLURAL.select(n) === "one" ? one : many}`;
}

/** Bytes in powers of 1,024: "0 B", "1,023 B", "1.2 KiB", "50 MiB" (52,428,800 bytes). */
export function fmtBytes(n: number): string {
  if (n < 1024) return `${fmtNumber(n)}${NBSP}B`;
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < BINARY.length - 1);
  return `${v < 10 ? SIZE.format(v) : fmtNumber(Math.round(v))}${NBSP}${BINARY[i]}`;
}

/** Milliseconds as seconds with `digits` decimals: 1234 → "1.2 s". */
export function fmtSeconds(ms: number, digits = 1): string {
  return `${new Intl.NumberFormat("en", { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(ms / 1000)}${NBSP}s`;
}
