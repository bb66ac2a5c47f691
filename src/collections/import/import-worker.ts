// Worker-thread entry of the import queue (src/collections/import/import-queue.ts): an uploaded file
// read, parsed and split off the server's thread. Listed as an entrypoint of `bun build
// --compile` (src/build/build.ts) so the binary carries it.

import type { CorpusPutOutcome } from "../../store/types.ts";
import { importFile } from "./import-file.ts";
import type { FromWorker, ToWorker } from "./import-messages.ts";

declare const self: Worker;

/** The pending `put`'s answer, while the worker waits for the server to store a batch. */
let answer: ((m: ToWorker) => void) | null = null;

const send = (m: FromWorker) => self.postMessage(m);

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type !== "job") {
    answer?.(m);
    return;
  }
  let outcome: FromWorker;
  try {
    outcome = await importFile(
      m.job,
      (docs) =>
        new Promise<CorpusPutOutcome[]>((resolve, reject) => {
          answer = (reply) => {
            answer = null;
            if (reply.type === "stored") resolve(reply.outcomes);
            else reject(new Error(reply.type === "refused" ? reply.reason : "unexpected answer"));
          };
          send({ type: "put", docs });
        }),
    );
  } catch (err) {
    // The spooled file could not be read at all (removed meanwhile, an I/O error).
    outcome = { type: "failed", reason: `the file could not be read (${(err as Error).message})` };
  }
  send(outcome);
};
