import type { Account } from "../../auth/accounts.ts";
import { Audit } from "../../auth/audit/audit.ts";
import type { Config } from "../../config/schema.ts";
import { AppError } from "../../contract/errors.ts";
import { err, json as jsonAnswer, sessionOp } from "../../contract/openapi-operations.ts";
import { ref } from "../../contract/openapi-schemas.ts";
import { BODY_TIMEOUT_S } from "../../contract/query.ts";
import type { UploadedFile } from "../../contract/uploads.ts";
import { storageAllowanceFor, withinAllowance } from "../../corpus/storage-allowance.ts";
import { json, NO_STORE } from "../../http/responses.ts";
import { routes } from "../../http/route.ts";
import type { Metrics } from "../../metrics/registry.ts";
import type { Store } from "../../store/types.ts";
import type { Logger } from "../../util/logger.ts";
import { ownCollection } from "../find-collection.ts";
import type { ImportQueue } from "../import/import-queue.ts";
import { collectionAt, NAME_PARAM, OWNER_PARAM } from "../route-params.ts";
import { enqueueUpload } from "./enqueue-upload.ts";
import { receiveUpload } from "./upload-intake.ts";

// The route's OpenAPI operation, beside it: its summary, body and answers are this one object.
const UPLOAD_DOCUMENTS = sessionOp(
  "uploadDocuments",
  "Collections",
  "Upload files into one of the caller's collections; each is imported in the background",
  {
    202: jsonAnswer(
      "UploadAccepted",
      "every file kept and queued; follow each one's status (queued, indexing, ready or failed with the reason) in the documents list",
    ),
    400: err(
      ["invalid_request", "invalid_file_name", "unsupported_format", "upload_incomplete"],
      " (not multipart/form-data, a part not named files, no file)",
    ),
    404: err(["collection_not_found"], " (the caller's own collections only; uploading never creates one)"),
    413: err(["upload_too_large", "too_many_files", "storage_quota_exceeded"]),
    507: err(["insufficient_storage"]),
  },
  {
    parameters: [NAME_PARAM, OWNER_PARAM],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: ref("UploadBody"),
          encoding: { files: { contentType: "application/octet-stream" } },
        },
      },
    },
  },
);

export interface UploadDeps {
  store: Store;
  config: Config;
  imports: ImportQueue;
  metrics: Metrics;
  logger: Logger;
  /** Longest silence within an upload's body (default BODY_TIMEOUT_S); tests shorten it. */
  bodyTimeoutMs?: number;
}

/**
 * Uploads into the caller's own collection (README "Collections for a team"): session cookie
 * only, checked (with the cross-site check) before the body is read. Nothing is stored unless
 * every file is: the collection, then a full allowance, are refused before the body is read;
 * the files are spooled, then queued in one transaction with the allowance's check. The
 * multipart body is streamed to disk here (upload-intake.ts), never read into memory by the gate.
 */
export const UPLOAD_ROUTES = routes<Account>()(
  {
    uploadDocuments: {
      method: "POST",
      path: "/api/console/collections/:name/documents",
      auth: "session",
      body: "own",
      operation: UPLOAD_DOCUMENTS,
    },
  },
  (deps: UploadDeps) => {
    const audit = new Audit(deps.config, deps.logger);
    return {
      uploadDocuments: async ({ account, request, params }) => {
        const at = collectionAt(params, request);
        const collection = await ownCollection(deps.store, account, at.name, at.owner);
        // Already over (a smaller plan since): refused before a byte is read, as the queueing would.
        const allowance = storageAllowanceFor(deps.config, account.plan);
        const use = await deps.store.uploads.storageUse(account.id);
        if (!withinAllowance(use, allowance))
          throw new AppError(
            "storage_quota_exceeded",
            "your collections hold more than your plan keeps: nothing was stored; remove documents or ask for a larger plan",
          );
        const spool = deps.imports.spool;
        deps.metrics.uploadsReceiving.add(1);
        const files = await receiveUpload(request, spool, deps.config, {
          idleMs: deps.bodyTimeoutMs ?? BODY_TIMEOUT_S * 1000,
          room: allowance.bytes - use.bytes,
        }).finally(() => deps.metrics.uploadsReceiving.add(-1));
        await deps.imports.ready;
        const rows = await enqueueUpload(deps.store, deps.config, spool, {
          account,
          collection,
          files,
          instanceId: deps.imports.instanceId,
          audit: audit.scope(request, account),
        });
        deps.imports.kick();
        deps.metrics.uploadFiles.inc({}, rows.length);
        deps.metrics.uploadBytes.inc(
          {},
          rows.reduce((n, r) => n + r.bytes, 0),
        );
        const documents: UploadedFile[] = rows.map((r) => ({ doc_id: r.docId, status: "queued", bytes: r.bytes }));
        return json({ documents }, 202, NO_STORE);
      },
    };
  },
);
