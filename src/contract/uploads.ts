import { type Static, Type as T, type TSchema } from "@sinclair/typebox";

/**
 * Uploads to a collection (README "Collections for a team", POST
 * /api/console/collections/{name}/documents, session cookie only): files in, each queued for
 * import; its status is then followed in the collection's documents list.
 */

/** The multipart/form-data body: one or more parts named `files`, each a file with its name. */
export const UploadBodySchema = T.Object(
  {
    files: T.Array(T.String({ contentMediaType: "application/octet-stream" }), {
      minItems: 1,
      description:
        "the files, each a part named files whose filename is its doc_id: PDF, HTML, Markdown, text, JSONL or .jsonl.gz by the name's ending",
    }),
  },
  { description: "multipart/form-data: one or more parts named files" },
);

/** One file of an accepted upload. */
export const UploadedFileSchema = T.Object(
  {
    doc_id: T.String({
      description: "the file's name (NFC): its document's doc_id; a JSONL file's records keep their own ids",
    }),
    status: T.Literal("queued", { description: "queued for import; follow it in the documents list" }),
    bytes: T.Integer({ minimum: 0, description: "extra: the file's size as received" }),
  },
  { description: "a file of the upload" },
);

/** POST /api/console/collections/{name}/documents 202. */
export const UploadAcceptedSchema = T.Object(
  { documents: T.Array(UploadedFileSchema, { description: "in the order sent" }) },
  { description: "the files kept and queued for import" },
);

export type UploadedFile = Static<typeof UploadedFileSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const UPLOAD_SCHEMAS = {
  UploadBody: UploadBodySchema,
  UploadedFile: UploadedFileSchema,
  UploadAccepted: UploadAcceptedSchema,
} as const satisfies Record<string, TSchema>;
