// The upstreams of the held-streams benchmark (academic search, planner and a writer model
// that waits before answering), in a process of their own: upstreams are remote in real
// use, and serving them from the measuring process would delay its clocks.
import { type ChatBody, isPlannerCall, startChatServer } from "../fixtures/chat-server.ts";
import { startPageServer } from "../fixtures/page-server.ts";
import { startSearchFixtures } from "../fixtures/search-servers.ts";

/** Questions carrying this mark are warm-up runs: their writer answers at once. */
export const WARM_UP_MARK = "(warm-up run)";

if (import.meta.main) {
  const holdMs = Number(process.argv[2] ?? "15000");
  // Papers link to a real page server (a landing page and a PDF), so every run reads.
  const pages = startPageServer();
  const search = startSearchFixtures(pages.base);
  const warm = (b: ChatBody) => b.messages.some((m) => m.content.includes(WARM_UP_MARK));
  const chat = startChatServer((b) =>
    isPlannerCall(b)
      ? { text: '{"kind":"academic","language":"en","queries":["base editing"]}' }
      : { delayMs: warm(b) ? 0 : holdMs, text: "Base editing converts single bases [S1]." },
  );
  console.log(JSON.stringify({ openalex: search.urls.openalex, openaiBase: chat.openaiBase }));
  process.on("SIGTERM", () => {
    search.stop();
    chat.stop();
    pages.stop();
    process.exit(0);
  });
}
