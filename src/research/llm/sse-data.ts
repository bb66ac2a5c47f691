/**
 * The `data:` payloads of a server-sent-events body, in order, until `data: [DONE]`.
 * Multi-line data fields are joined with "\n" as the SSE format says; comments, event
 * names and ids are skipped (chat-completion streams carry everything in data).
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const dec = new TextDecoder();
  let buf = "";
  let data: string[] = [];
  const flush = function* () {
    const joined = data.join("\n");
    data = [];
    if (joined) yield joined;
  };
  for await (const part of body) {
    buf += dec.decode(part, { stream: true });
    for (let nl = buf.search(/\r\n|\r|\n/); nl >= 0; nl = buf.search(/\r\n|\r|\n/)) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + (buf.startsWith("\r\n", nl) ? 2 : 1));
      if (line === "") {
        yield* flush();
        continue;
      }
      if (!line.startsWith("data:")) continue;
      const value = line.slice(line.startsWith("data: ") ? 6 : 5);
      if (value.trim() === "[DONE]") return;
      data.push(value);
    }
  }
  buf += dec.decode();
  if (buf.startsWith("data:")) data.push(buf.slice(buf.startsWith("data: ") ? 6 : 5));
  if (data.join("").trim() !== "[DONE]") yield* flush();
}
