import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface ParsedStream {
  events: { event: string; data: any }[];
  comments: string[];
}

/** Reads a whole SSE response with a real parser (eventsource-parser); `onComment` hears each comment as it arrives. */
export async function readSse(
  res: Response,
  onEvent?: (e: { event: string; data: any }) => void,
  onComment?: (comment: string) => void,
): Promise<ParsedStream> {
  const out: ParsedStream = { events: [], comments: [] };
  const parser = createParser({
    onEvent: (m: EventSourceMessage) => {
      const e = { event: m.event ?? "message", data: JSON.parse(m.data) };
      out.events.push(e);
      onEvent?.(e);
    },
    onComment: (c) => {
      out.comments.push(c.trim());
      onComment?.(c.trim());
    },
  });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(dec.decode(value, { stream: true }));
  }
  return out;
}

/** The answer text a stream's `answer` deltas add up to. */
export function answerOf(events: { event: string; data: any }[]): string {
  return events
    .filter((e) => e.event === "answer")
    .map((e) => e.data.delta)
    .join("");
}
