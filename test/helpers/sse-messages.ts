import { createParser } from "eventsource-parser";

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: any;
}

/** A whole SSE response as written: its raw text, and each message with its `id:` (which readSse leaves out). */
export async function readSseMessages(res: Response): Promise<{ text: string; messages: SseMessage[] }> {
  const text = await res.text();
  const messages: SseMessage[] = [];
  const parser = createParser({
    onEvent: (m) => messages.push({ id: m.id, event: m.event ?? "message", data: JSON.parse(m.data) }),
  });
  parser.feed(text);
  return { text, messages };
}
