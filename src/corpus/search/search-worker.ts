import { openCorpusReader } from "../../store/corpus-reader.ts";
import type { SearchJob, SearchReply } from "./search-messages.ts";
import { type TaskRunner, taskRunner } from "./search-task.ts";

/**
 * The search thread (search-pool.ts): its own read-only connection and its own ranker, whose
 * index snapshot and postings stay here between searches. The pool sends one job at a time.
 */
declare const self: Worker;

let run: TaskRunner | null = null;
const reply = (m: SearchReply) => self.postMessage(m);

self.onmessage = async (e: MessageEvent<SearchJob>) => {
  const job = e.data;
  if (job.type === "open") {
    run = taskRunner(openCorpusReader(job.source));
    return reply({ type: "ready" });
  }
  try {
    if (!run) throw new Error("the search thread has no connection");
    reply({ type: "done", id: job.id, ok: true, value: await run(job) });
  } catch (err) {
    reply({ type: "done", id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};
