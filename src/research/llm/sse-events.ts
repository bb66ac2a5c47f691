/** One server-sent event: its name (null when unnamed), its data lines joined, and its `id:` if it had one. */
export interface SseEvent {
  event: string | null;
  data: string;
  id?: string;
}

/**
 * The events of a server-sent-events body, in order, including `data: [DONE]` (the
 * reader decides what ends a stream). Multi-line data fields are joined with "\n" as the
 * SSE format says; comments and ids are skipped. A line `error: {…}` is not SSE, but
 * llama.cpp-family servers end a failed stream with one: it comes out as an event named
 * "error" so a failure is never skipped as an unknown field. An event's own `id:` rides
 * with it (what a client sends back as Last-Event-ID to resume after it).
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const dec = new TextDecoder();
  let buf = "";
  let data: string[] = [];
  let event: string | null = null;
  let id: string | undefined;
  const flush = function* (): Generator<SseEvent> {
    const joined = data.join("\n");
    const name = event;
    const named = id;
    data = [];
    event = null;
    id = undefined;
    if (joined || name === "error")
      yield named === undefined ? { event: name, data: joined } : { event: name, data: joined, id: named };
  };
  const field = function* (line: string): Generator<SseEvent> {
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
    if (name === "data") data.push(value);
    else if (name === "event") event = value;
    else if (name === "id") id = value;
    else if (name === "error") {
      yield* flush();
      yield { event: "error", data: value };
    }
  };
  for await (const part of body) {
    buf += dec.decode(part, { stream: true });
    for (let nl = buf.search(/\r\n|\r|\n/); nl >= 0; nl = buf.search(/\r\n|\r|\n/)) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + (buf.startsWith("\r\n", nl) ? 2 : 1));
      if (line === "") yield* flush();
      else yield* field(line);
    }
  }
  buf += dec.decode();
  if (buf) yield* field(buf);
  yield* flush();
}
