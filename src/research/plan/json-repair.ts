/**
 * Candidate JSON objects in model output: each balanced {...} in order of appearance
 * (prose and code fences around them are skipped; braces inside strings don't count).
 * An object cut off at the end is closed, since models do run out of tokens.
 */
export function* jsonObjects(text: string, limit = 8): Generator<string> {
  let from = 0,
    found = 0;
  while (found < limit) {
    const start = text.indexOf("{", from);
    if (start < 0) return;
    const open: string[] = [];
    let quote = "",
      esc = false,
      end = -1;
    for (let i = start; i < text.length; i++) {
      const c = text[i]!;
      if (quote) {
        if (esc) esc = false;
        else if (c === "\\") esc = true;
        else if (c === quote) quote = "";
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === "{" || c === "[") open.push(c === "{" ? "}" : "]");
      else if ((c === "}" || c === "]") && open.pop() && !open.length) {
        end = i;
        break;
      }
    }
    found++;
    if (end < 0) {
      yield text.slice(start) + quote + open.reverse().join("");
      return;
    }
    yield text.slice(start, end + 1);
    from = start + 1;
  }
}

/**
 * Mends the usual breakage of model-written JSON, outside strings only: single-quoted
 * strings, unquoted keys, trailing commas, smart quotes, // comments.
 */
export function repairJson(s: string): string {
  const src = s.replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      // Copy a whole string, re-quoted with double quotes.
      let j = i + 1,
        body = "";
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === "\\" && j + 1 < src.length) {
          body += src[j]! + src[j + 1]!;
          j++;
          continue;
        }
        body += c === "'" && src[j] === '"' ? '\\"' : src[j]!;
      }
      out += `"${c === "'" ? body.replace(/\\'/g, "'") : body}"`;
      i = j;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === ",") {
      const rest = src.slice(i + 1).match(/^\s*([}\]])/);
      if (rest) continue;
    }
    const key = /^[A-Za-z_$][\w$]*(?=\s*:)/.exec(src.slice(i));
    if (key && /[{,]\s*$/.test(out)) {
      out += `"${key[0]}"`;
      i += key[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/** JSON.parse, then the repaired text; undefined when neither parses. */
export function parseLoose(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    /* try the repaired text */
  }
  try {
    return JSON.parse(repairJson(s));
  } catch {
    return undefined;
  }
}
