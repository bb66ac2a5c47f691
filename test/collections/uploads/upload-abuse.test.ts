import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { conforms } from "../../helpers/documented-answer.ts";
import { useLongTimeout } from "../../setup.ts";
import { at, call, type Member, member } from "../collection-calls.ts";
import { answered, docOf, leftovers, rawRequest, settled, startUploadServer, upload } from "./upload-calls.ts";

useLongTimeout();

const DOCS = "/api/console/collections/{name}/documents";
const FILE_CAP = 100_000;
// Room for 10,000 small parts, so that the file count is what refuses them.
const REQUEST_CAP = 4_000_000;
const srv = startUploadServer({
  UPLOAD_MAX_FILE_BYTES: String(FILE_CAP),
  UPLOAD_MAX_REQUEST_BYTES: String(REQUEST_CAP),
  // The default: 10,000 files are refused by it.
  UPLOAD_MAX_FILES: "1000",
});
let a: Member;
beforeAll(async () => {
  a = await member(srv.url, "a");
  await call(a, "POST", "/api/console/collections", { name: "notes" });
});
afterAll(() => srv.stop(100));

/** The refusal's code, after checking the answer is documented for the upload operation. */
async function refused(r: { status: number; text: string; res: Response }) {
  const body = await conforms(
    new Response(r.text, { status: r.status, headers: r.res.headers }),
    DOCS,
    "post",
    r.status,
  );
  return [r.status, body.errors[0].code];
}

const nothingStored = () => expect(leftovers(srv)).toEqual({ rows: 0, documents: 0, spooled: 0 });
const path = () => `${at("notes")}/documents`;
const head = (extra: string) =>
  `POST ${path()} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${a.c.cookie}\r\nContent-Type: multipart/form-data; boundary=XX\r\n${extra}\r\n`;

describe("what an upload refuses, before anything is stored", () => {
  test("names that cannot be doc_ids: 400 invalid_file_name; markup in a name is kept as text", async () => {
    for (const name of [
      "../../etc/passwd.md",
      "a/b.md",
      "back\\slash.md",
      "bell\u0007.md",
      "new\nline.md",
      "rtl\u202Efdp.md",
      "..",
      " lead.md",
      `${"x".repeat(253)}.md`,
    ]) {
      const r = await upload(a, "notes", [
        { name: "ok.md", data: "fine" },
        { name, data: "x" },
      ]);
      expect([name.slice(0, 20), ...(await refused(r))]).toEqual([name.slice(0, 20), 400, "invalid_file_name"]);
    }
    const twice = await upload(a, "notes", [
      { name: "same.md", data: "1" },
      { name: "same.md", data: "2" },
    ]);
    expect(await refused(twice)).toEqual([400, "invalid_file_name"]);
    nothingStored();
    const html = '<img src=x onerror="alert(1)">.md';
    const r = await upload(a, "notes", [{ name: html, data: "# Markup\n\nin a name" }]);
    expect([r.status, r.res.headers.get("content-type")]).toEqual([202, "application/json; charset=utf-8"]);
    expect(r.body.documents[0].doc_id).toBe(html);
    expect(docOf(await settled(a, "notes"), html)).toMatchObject({ status: "ready", title: "Markup" });
    expect((await call(a, "DELETE", at("notes", html))).status).toBe(200);
  });

  test("a format collections do not import: 400 unsupported_format; not multipart: 400 invalid_request", async () => {
    const r = await upload(a, "notes", [
      { name: "ok.md", data: "fine" },
      { name: "slides.pptx", data: "PK" },
    ]);
    expect(await refused(r)).toEqual([400, "unsupported_format"]);
    const json = await a.c.req("POST", path(), { files: ["x"] });
    expect([json.status, ((await json.json()) as any).errors[0].code]).toEqual([400, "invalid_request"]);
    const fd = new FormData();
    fd.append("other", new File(["x"], "x.md"));
    const wrongPart = await fetch(srv.url + path(), { method: "POST", body: fd, headers: { cookie: a.c.cookie! } });
    expect([wrongPart.status, ((await wrongPart.json()) as any).errors[0].code]).toEqual([400, "invalid_request"]);
    nothingStored();
  });

  test("a body over UPLOAD_MAX_REQUEST_BYTES by its Content-Length: 413 before a byte of it is read", async () => {
    // 2 GB declared, none sent: the answer comes at once.
    const status = await rawRequest(srv.url, head("Content-Length: 2147483648\r\n"), () => {});
    expect(status).toBe("HTTP/1.1 413 Payload Too Large");
    nothingStored();
  });

  test("a chunked body (no Content-Length) is counted as it arrives: 413 at the limit, never read on", async () => {
    let sent = 0;
    let parts = 0;
    const data = "a".repeat(60 * 1024);
    // Files of 60 KB each (under the file limit), up to 2 GB in all, made as they are read: the server must stop it.
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent > 2 * 1024 ** 3) return c.close();
        const part = new TextEncoder().encode(
          `--XX\r\nContent-Disposition: form-data; name="files"; filename="f${parts++}.txt"\r\n\r\n${data}\r\n`,
        );
        sent += part.length;
        c.enqueue(part);
      },
    });
    const res = await fetch(srv.url + path(), {
      method: "POST",
      body,
      headers: { cookie: a.c.cookie!, "content-type": "multipart/form-data; boundary=XX" },
    });
    const text = await res.text();
    expect(await refused({ status: res.status, text, res })).toEqual([413, "upload_too_large"]);
    expect(text).toContain("UPLOAD_MAX_REQUEST_BYTES");
    expect(sent).toBeLessThan(50 * 1024 * 1024);
    nothingStored();
  });

  test("one file over UPLOAD_MAX_FILE_BYTES: 413 naming it; the files before it are not kept either", async () => {
    const r = await upload(a, "notes", [
      { name: "small.md", data: "small" },
      { name: "large.txt", data: "y".repeat(FILE_CAP + 1) },
    ]);
    expect(await refused(r)).toEqual([413, "upload_too_large"]);
    expect(r.body.errors[0].message).toContain('"large.txt"');
    nothingStored();
  });

  test("10,000 files in one request: 413 too_many_files, nothing stored", async () => {
    const files = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }));
    const r = await upload(a, "notes", files);
    expect(await refused(r)).toEqual([413, "too_many_files"]);
    nothingStored();
  });

  test("an upload cut mid-body (the connection closes): nothing stored", async () => {
    const from = srv.logs.length;
    const part = `--XX\r\nContent-Disposition: form-data; name="files"; filename="first.md"\r\n\r\n# First\r\n--XX\r\nContent-Disposition: form-data; name="files"; filename="cut.md"\r\n\r\nhalf of it`;
    await rawRequest(
      srv.url,
      head("Transfer-Encoding: chunked\r\n"),
      (send) => send(`${part.length.toString(16)}\r\n${part}\r\n`),
      { close: true },
    );
    await answered(srv, path(), 400, from);
    nothingStored();
  });

  test("a body that stops arriving: 400 upload_incomplete once it has been silent for the body timeout", async () => {
    const slow = startUploadServer({}, { bodyTimeoutMs: 200 });
    try {
      const m = await member(slow.url, "s");
      await call(m, "POST", "/api/console/collections", { name: "notes" });
      const part = `--XX\r\nContent-Disposition: form-data; name="files"; filename="slow.md"\r\n\r\nthe first bytes`;
      const head = `POST ${at("notes")}/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${m.c.cookie}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n`;
      // The head and a first piece, then nothing: the answer comes without the connection closing.
      const status = await rawRequest(slow.url, head, (send) => send(part));
      expect(status).toBe("HTTP/1.1 400 Bad Request");
      expect(slow.logs.some((l) => l.includes('"status":400'))).toBe(true);
      expect(leftovers(slow)).toEqual({ rows: 0, documents: 0, spooled: 0 });
    } finally {
      await slow.stop(100);
    }
  });
});
