import { type FileHandle, open } from "node:fs/promises";
import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import type { FileFormat } from "../../corpus/import/formats.ts";
import { KNOWN_ENDINGS } from "../../corpus/import/formats.ts";
import { claimedFormat, docIdOf, fileNameProblem } from "./file-name.ts";
import { boundaryOf, MultipartError, multipartEvents } from "./multipart-stream.ts";
import type { Spool } from "./spool.ts";
import { timedBytes } from "./timed-bytes.ts";

/** One file of an upload, spooled whole. */
export interface ReceivedFile {
  docId: string;
  format: FileFormat;
  bytes: number;
  /** Its name in the spool. */
  spool: string;
}

export type UploadLimits = Pick<Config, "UPLOAD_MAX_FILE_BYTES" | "UPLOAD_MAX_REQUEST_BYTES" | "UPLOAD_MAX_FILES">;

const MiB = (n: number) => `${Math.floor((n / 1048576) * 10) / 10} MiB`;
const tooLarge = (what: string, limit: number, setting: string) =>
  new AppError("upload_too_large", `${what} is over ${MiB(limit)} (${limit} bytes, ${setting}): nothing was stored`);
/** A name as a message quotes it: invisible and direction characters spelled out, so the message reads as it is. */
const quoted = (s: string) =>
  JSON.stringify(s).replace(
    /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/**
 * Reads an upload's multipart body into the spool, every file whole, within the limits
 * (README "Configuration": UPLOAD_MAX_*). Threats: a body too large for memory or disk (told
 * by Content-Length before a byte is read, else counted as it streams: a chunked 2 GB body is
 * cut at the limit), a flood of small files, names that climb out of a folder, and a body that
 * stalls or breaks off. `room`: the bytes the storage allowance has left, told as they
 * arrive (the queueing checks it again, exactly). Any refusal removes what was spooled: nothing
 * of the upload is kept.
 */
export async function receiveUpload(
  request: Request,
  spool: Spool,
  limits: UploadLimits,
  o: { idleMs: number; room: number },
): Promise<ReceivedFile[]> {
  const boundary = boundaryOf(request.headers.get("content-type"));
  if (!boundary)
    throw new AppError("invalid_request", "send the files as multipart/form-data, one or more parts named files");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limits.UPLOAD_MAX_REQUEST_BYTES)
    throw tooLarge("the upload", limits.UPLOAD_MAX_REQUEST_BYTES, "UPLOAD_MAX_REQUEST_BYTES");
  if (!request.body) throw new AppError("invalid_request", "no files: send one or more parts named files");

  const files: ReceivedFile[] = [];
  let current: { file: ReceivedFile; handle: FileHandle } | null = null;
  let total = 0;
  let inFiles = 0;
  const bytes = timedBytes(request.body, o.idleMs, (n) => {
    total += n;
    if (total > limits.UPLOAD_MAX_REQUEST_BYTES)
      throw tooLarge("the upload", limits.UPLOAD_MAX_REQUEST_BYTES, "UPLOAD_MAX_REQUEST_BYTES");
  });
  try {
    for await (const ev of multipartEvents(bytes, boundary)) {
      if (ev.type === "part") {
        if (ev.name !== "files")
          throw new AppError(
            "invalid_request",
            `unexpected part ${quoted(ev.name ?? "")}: send the files as parts named files`,
          );
        if (ev.filename === null) throw new AppError("invalid_request", "a part named files carries no filename");
        if (files.length >= limits.UPLOAD_MAX_FILES)
          throw new AppError(
            "too_many_files",
            `more than ${limits.UPLOAD_MAX_FILES} files in one upload (UPLOAD_MAX_FILES): nothing was stored; send them in several`,
          );
        const file = startFile(ev.filename, files, spool);
        files.push(file);
        current = { file, handle: await open(spool.path(file.spool), "wx") };
      } else if (ev.type === "data" && current) {
        current.file.bytes += ev.bytes.byteLength;
        inFiles += ev.bytes.byteLength;
        if (current.file.bytes > limits.UPLOAD_MAX_FILE_BYTES)
          throw tooLarge(quoted(current.file.docId), limits.UPLOAD_MAX_FILE_BYTES, "UPLOAD_MAX_FILE_BYTES");
        // Past the storage allowance's room: stopped now rather than refused once it has all arrived.
        if (inFiles > o.room)
          throw new AppError(
            "storage_quota_exceeded",
            `the files are larger than the ${(o.room / 1048576).toFixed(1)} MiB your plan has left (files being imported count at their size): nothing was stored; remove documents or ask for a larger plan`,
          );
        await current.handle.write(ev.bytes);
      } else if (ev.type === "end" && current) {
        await current.handle.close();
        current = null;
      }
    }
    if (!files.length) throw new AppError("invalid_request", "no files: send one or more parts named files");
    return files;
  } catch (e) {
    await current?.handle.close().catch(() => {});
    for (const f of files) spool.remove(f.spool);
    await bytes.return?.(undefined).catch(() => {});
    throw refusal(e);
  }
}

/** Checks a part's file name and format, and reserves its spool name. */
function startFile(filename: string, files: ReceivedFile[], spool: Spool): ReceivedFile {
  const docId = docIdOf(filename);
  const problem = fileNameProblem(docId);
  if (problem) throw new AppError("invalid_file_name", `${quoted(filename)}: ${problem}; nothing was stored`);
  if (files.some((f) => f.docId === docId))
    throw new AppError("invalid_file_name", `${quoted(docId)} is sent twice in one upload; nothing was stored`);
  const claimed = claimedFormat(docId);
  if (!claimed)
    throw new AppError(
      "unsupported_format",
      `${quoted(docId)} is not a format collections import (${KNOWN_ENDINGS}); nothing was stored`,
    );
  return { docId, format: claimed.format, bytes: 0, spool: spool.create(claimed.ending).name };
}

/** What a failure of the intake answers. */
function refusal(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof MultipartError)
    return e.incomplete
      ? new AppError("upload_incomplete", "the upload ended before its last part: nothing was stored")
      : new AppError("invalid_request", `not a multipart/form-data body (${e.message}): nothing was stored`);
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOSPC" || code === "EDQUOT")
    return new AppError("insufficient_storage", "the server's disk is full: nothing was stored; try again later");
  // The client went away mid-body (the read failed): nothing of it is kept.
  return new AppError("upload_incomplete", "the upload broke off before its end: nothing was stored");
}
