import { readdirSync } from "node:fs";
import type { WorkerHostOptions } from "../../../src/collections/import/worker-host.ts";
import { buildEngine } from "../../../src/research/build-engine.ts";
import { scriptedEngine } from "../../helpers/scripted-engine.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { closedPort, FAST } from "../../runs/collections-server.ts";
import { at, call, type Member } from "../collection-calls.ts";

/** A file to upload: its name and content. */
export interface UploadFile {
  name: string;
  data: string | Uint8Array;
}

/** POST .../documents with the files as multipart/form-data parts named `files`, as the web app sends them. */
export async function upload(m: Member, collection: string, files: UploadFile[], headers: Record<string, string> = {}) {
  const fd = new FormData();
  for (const f of files) fd.append("files", new File([f.data as BlobPart], f.name));
  const res = await fetch(`${m.c.base}${at(collection)}/documents`, {
    method: "POST",
    body: fd,
    headers: { ...(m.c.cookie ? { cookie: m.c.cookie } : {}), ...headers },
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, res };
}

const inFlight = (d: { status: string }) => d.status === "queued" || d.status === "indexing";

/**
 * The collection's documents once none is queued or indexing: the status is waited for (a poll of
 * the list, as the web app follows it), never slept on and then checked.
 */
export async function settled(m: Member, collection: string): Promise<any[]> {
  for (;;) {
    const r = await call(m, "GET", `${at(collection)}/documents`);
    if (r.status !== 200) throw new Error(`documents: ${r.status} ${r.text}`);
    if (!r.body.documents.some(inFlight)) return r.body.documents;
    await Bun.sleep(20);
  }
}

/** One document of a settled list by doc_id. */
export const docOf = (docs: any[], docId: string) => docs.find((d) => d.doc_id === docId);

/** What an upload left behind on the server: upload rows, stored documents, spooled files. */
export function leftovers(srv: TestServer) {
  const n = (q: string) => (srv.sql.query(q).get() as { n: number }).n;
  return {
    rows: n("SELECT count(*) AS n FROM corpus_uploads"),
    documents: n("SELECT count(*) AS n FROM corpus_documents"),
    spooled: readdirSync(srv.deps.imports.spool.root).length,
  };
}

/** Resolves once the server has logged the answer to a request on `path` (an event, not a wait). */
export async function answered(srv: TestServer, path: string, status: number, from = 0): Promise<void> {
  for (;;) {
    const hit = srv.logs.slice(from).some((l) => {
      const j = JSON.parse(l);
      return j.msg === "request" && j.path === path && j.status === status;
    });
    if (hit) return;
    await Bun.sleep(10);
  }
}

/**
 * A raw HTTP/1.1 request over TCP: its head as given, then `body` pieces (a function may write
 * them as it pleases and end or cut the connection). Answers the response's status line.
 */
export async function rawRequest(
  url: string,
  head: string,
  write: (send: (b: Uint8Array | string) => void) => Promise<void> | void,
  o: { close?: boolean } = {},
): Promise<string> {
  const { hostname, port } = new URL(url);
  let received = "";
  let done: (v: string) => void = () => {};
  const answer = new Promise<string>((r) => (done = r));
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data(_s, d) {
        received += new TextDecoder().decode(d);
        if (received.includes("\r\n\r\n")) done(received);
      },
      close() {
        done(received);
      },
      error() {
        done(received);
      },
    },
  });
  socket.write(head);
  await write((b) => socket.write(b));
  if (o.close) socket.end();
  const text = await answer;
  socket.end();
  return text.split("\r\n")[0] ?? "";
}

/**
 * The real server on an in-memory database (as startTestServer), with the import worker's
 * settings given (a gated worker, a stall timer on cue) and, when `realEngine`, the real engine
 * over the collections (no model, no web: runs answer from the collections).
 */
export function startUploadServer(
  env: Record<string, string> = {},
  o: { importWorker?: Partial<WorkerHostOptions>; realEngine?: boolean; bodyTimeoutMs?: number } = {},
): TestServer {
  return startTestServer({
    env: {
      SIGNUP_PER_HOUR: "1000",
      PLAN_RUNS_FREE: "100",
      ACADEMIC_PROVIDERS: "none",
      SEARXNG_URL: `http://127.0.0.1:${closedPort()}`,
      ...env,
    },
    engine: o.realEngine
      ? (config, logger, store) => buildEngine(config, logger, undefined, FAST, store)
      : scriptedEngine(),
    imports: { worker: o.importWorker },
    bodyTimeoutMs: o.bodyTimeoutMs,
  });
}
