/**
 * Removes <think>…</think> blocks (reasoning models), including an unterminated one, and
 * the reasoning before a stray `</think>` (servers that swallow the opening tag).
 */
export function stripThinking(text: string): string {
  let t = text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, "");
  const stray = t.toLowerCase().lastIndexOf("</think>");
  if (stray >= 0) t = t.slice(stray + "</think>".length);
  return t.replace(/^\s+/, "");
}

/**
 * Streaming version: drops deltas inside <think>…</think>, even when a tag is split
 * across chunks, and leading white space before the first visible text.
 */
export function createThinkFilter(emit: (text: string) => void): { push(chunk: string): void; end(): void } {
  let buf = "";
  let inThink = false;
  let started = false;
  const out = (t: string) => {
    if (!started) {
      t = t.replace(/^\s+/, "");
      if (!t) return;
      started = true;
    }
    emit(t);
  };
  const drain = (final: boolean) => {
    for (;;) {
      const tag = inThink ? "</think>" : "<think>";
      const i = buf.toLowerCase().indexOf(tag);
      if (i >= 0) {
        if (!inThink) out(buf.slice(0, i));
        buf = buf.slice(i + tag.length);
        inThink = !inThink;
        continue;
      }
      // Hold back a tail that could be the start of a tag split across chunks.
      let keep = 0;
      if (!final)
        for (let k = Math.min(tag.length - 1, buf.length); k > 0; k--)
          if (tag.startsWith(buf.slice(-k).toLowerCase())) {
            keep = k;
            break;
          }
      if (!inThink) out(buf.slice(0, buf.length - keep));
      buf = buf.slice(buf.length - keep);
      return;
    }
  };
  return {
    push(chunk) {
      buf += chunk;
      drain(false);
    },
    end() {
      drain(true);
      buf = "";
    },
  };
}
