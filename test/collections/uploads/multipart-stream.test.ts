import { describe, expect, test } from "bun:test";
import { boundaryOf, MultipartError, multipartEvents } from "../../../src/collections/uploads/multipart-stream.ts";

/** A body as the platform's own FormData encodes it, with its boundary. */
async function encoded(files: { name: string; data: string | Uint8Array<ArrayBuffer> }[], field = "files") {
  const fd = new FormData();
  for (const f of files) fd.append(field, new File([f.data], f.name));
  const req = new Request("http://x/", { method: "POST", body: fd });
  // Read before the body: once it is consumed Bun no longer shows the header.
  const boundary = boundaryOf(req.headers.get("content-type"))!;
  return { bytes: new Uint8Array(await req.arrayBuffer()), boundary };
}

/** The body in pieces of the sizes given (cycled), as a network delivers it. */
async function* pieces(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.slice(at, at + n);
    at += n;
  }
}

/** The parts read: each one's filename and bytes joined. */
async function parts(body: AsyncIterable<Uint8Array>, boundary: string) {
  const out: { name: string | null; filename: string | null; data: Buffer }[] = [];
  let chunks: Uint8Array[] = [];
  for await (const ev of multipartEvents(body, boundary)) {
    if (ev.type === "part") {
      chunks = [];
      out.push({ name: ev.name, filename: ev.filename, data: Buffer.alloc(0) });
    } else if (ev.type === "data") chunks.push(ev.bytes.slice());
    else out.at(-1)!.data = Buffer.concat(chunks);
  }
  return out;
}

describe("a multipart body read as it arrives", () => {
  test("every part whole, whatever the pieces: one byte at a time, odd sizes, the boundary split anywhere", async () => {
    // A file holding what a boundary starts with, CRLFs and dashes: only the whole delimiter ends a part.
    const tricky = "line\r\n--\r\n--notit\r\n-\r\n";
    const binary = new Uint8Array(3000).map((_, i) => (i * 37) % 256);
    const { bytes, boundary } = await encoded([
      { name: "a.md", data: "# A\n\nalpha" },
      { name: "tricky.txt", data: tricky },
      { name: "bin.pdf", data: binary },
      { name: "empty.txt", data: "" },
    ]);
    for (const sizes of [[1], [2, 3], [7, 64, 1], [bytes.length]]) {
      const got = await parts(pieces(bytes, sizes), boundary);
      expect(got.map((p) => [p.name, p.filename])).toEqual([
        ["files", "a.md"],
        ["files", "tricky.txt"],
        ["files", "bin.pdf"],
        ["files", "empty.txt"],
      ]);
      expect(got[0]!.data.toString()).toBe("# A\n\nalpha");
      expect(got[1]!.data.toString()).toBe(tricky);
      expect(new Uint8Array(got[2]!.data)).toEqual(binary);
      expect(got[3]!.data.length).toBe(0);
    }
  });

  test("names as browsers send them: UTF-8, quotes as %22, a backslash as itself, markup as text; RFC 5987 filename*", async () => {
    const { bytes, boundary } = await encoded([{ name: "Résumé <b>1</b>.md", data: "x" }]);
    expect((await parts(pieces(bytes, [5]), boundary))[0]!.filename).toBe("Résumé <b>1</b>.md");
    const b = "XyZ";
    const raw = `--${b}\r\nContent-Disposition: form-data; name="files"; filename="plain.txt"; filename*=UTF-8''caf%C3%A9.txt\r\n\r\nhi\r\n--${b}\r\nContent-Disposition: form-data; name="files"; filename="say %22hi%22 back\\slash.txt"\r\n\r\nyo\r\n--${b}--\r\n`;
    const got = await parts(pieces(new TextEncoder().encode(raw), [3]), b);
    expect(got.map((p) => p.filename)).toEqual(["café.txt", 'say "hi" back\\slash.txt']);
    expect(got.map((p) => p.data.toString())).toEqual(["hi", "yo"]);
  });

  test("a body cut before its closing boundary is incomplete, wherever it is cut", async () => {
    const { bytes, boundary } = await encoded([{ name: "a.txt", data: "some text here" }]);
    for (const cut of [0, 10, 60, bytes.length - 10, bytes.length - 3]) {
      const e = await parts(pieces(bytes.slice(0, cut), [4]), boundary).catch((x) => x);
      expect([cut, e instanceof MultipartError && e.incomplete]).toEqual([cut, true]);
    }
  });

  test("a part without form-data headers, or with endless headers, is not multipart", async () => {
    const b = "B";
    const noDisposition = `--${b}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${b}--`;
    const e1 = await parts(pieces(new TextEncoder().encode(noDisposition), [8]), b).catch((x) => x);
    expect([e1 instanceof MultipartError, e1.incomplete]).toEqual([true, false]);
    const endless = `--${b}\r\nX-Pad: ${"a".repeat(20_000)}`;
    const e2 = await parts(pieces(new TextEncoder().encode(endless), [1000]), b).catch((x) => x);
    expect([e2 instanceof MultipartError, e2.message]).toEqual([true, "a part's headers are too long"]);
  });

  test("the boundary comes only from a multipart/form-data Content-Type", () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data;boundary=----x1")).toBe("----x1");
    expect(boundaryOf("multipart/mixed; boundary=x")).toBeNull();
    expect(boundaryOf("application/json")).toBeNull();
    expect(boundaryOf("multipart/form-data")).toBeNull();
    expect(boundaryOf(null)).toBeNull();
  });
});
