import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { NullableTimestamp, Timestamp } from "./formats.ts";

/**
 * The Console's collections (README "Collections for a team", /api/console/collections*,
 * session cookie only): the collections an account may read, its own to change, and their
 * documents. Fields beyond the ones every client needs are marked as extras; clients ignore
 * fields they do not recognise.
 */

/** The rule a collection's name keeps (src/corpus/import/collection-name.ts checks it). */
export const COLLECTION_NAME_RULE =
  '1–64 letters, digits, ".", "_" or "-", starting with a letter or digit (no "/", spaces, control characters or markup)';

export const VisibilitySchema = T.Union([T.Literal("private"), T.Literal("shared")], {
  description: "private: the owner's runs only; shared: every account's runs and Console",
});

export const CollectionStatusSchema = T.Union([T.Literal("ready"), T.Literal("indexing")], {
  description: "indexing while any of its documents is queued or being indexed; else ready",
});

/** One collection as the Console lists it. */
export const CollectionSchema = T.Object(
  {
    name: T.String({ description: COLLECTION_NAME_RULE }),
    visibility: VisibilitySchema,
    owner: T.Union([T.String(), T.Null()], {
      description: "the owner's email; null for a collection the operator shares with no owner",
    }),
    mine: T.Boolean({ description: "true when the caller owns it (only then may the caller change it)" }),
    documents: T.Integer({ minimum: 0, description: "documents stored (ready)" }),
    bytes: T.Integer({ minimum: 0, description: "UTF-8 bytes of the documents' kept text" }),
    status: CollectionStatusSchema,
    passages: T.Integer({ minimum: 0, description: "extra: passages searched" }),
    chars: T.Integer({ minimum: 0, description: "extra: characters of the kept text" }),
    created_at: Timestamp(),
    updated_at: NullableTimestamp("extra: when a document was last added or replaced; null while empty"),
  },
  { description: "a collection the caller may read" },
);

/** GET /api/console/collections: the caller's own and every shared one, by name then owner. */
export const CollectionListSchema = T.Object(
  { collections: T.Array(CollectionSchema, { description: "by name, then owner" }) },
  { description: "the collections the caller may read" },
);

/** Body of POST /api/console/collections. */
export const CreateCollectionBodySchema = T.Object(
  {
    name: T.String({ description: COLLECTION_NAME_RULE }),
    visibility: T.Optional(VisibilitySchema),
  },
  { description: "{name, visibility?}: visibility defaults to private" },
);

/** Body of PATCH /api/console/collections/{name}: a new name, a new visibility, or both. */
export const UpdateCollectionBodySchema = T.Object(
  {
    name: T.Optional(T.String({ description: `the new name: ${COLLECTION_NAME_RULE}` })),
    visibility: T.Optional(VisibilitySchema),
  },
  { description: "{name?, visibility?}: at least one" },
);

/** POST 201 and PATCH 200: the collection as it is now. */
export const CollectionAnswerSchema = T.Object(
  { collection: CollectionSchema },
  { description: "the collection as it is now" },
);

/** DELETE /api/console/collections/{name} 200. */
export const RemovedCollectionSchema = T.Object(
  {
    name: T.String(),
    documents: T.Integer({ minimum: 0, description: "how many documents were removed with it" }),
  },
  { description: "the collection removed, with its documents" },
);

export const DocumentStatusSchema = T.Union(
  [T.Literal("queued"), T.Literal("indexing"), T.Literal("ready"), T.Literal("failed")],
  { description: "ready once stored and searched; failed with the reason in `error`" },
);

/** One document of a collection as the Console lists it. */
export const DocumentItemSchema = T.Object(
  {
    doc_id: T.String({ description: "the file's name (an upload), or its path relative to the folder added" }),
    title: T.String(),
    status: DocumentStatusSchema,
    error: T.Optional(T.String({ description: "on failed documents: why" })),
    chars: T.Integer({ minimum: 0, description: "characters kept (0 until ready)" }),
    format: T.Optional(T.String({ description: "extra, on ready documents: pdf, html, markdown, text or jsonl" })),
    added_at: T.Optional(Timestamp("extra, on ready documents: when it was stored")),
  },
  { description: "a document of the collection" },
);

/** The most documents one answer of GET .../documents carries; `next` pages on. */
export const DOCUMENT_LIST_PAGE = 200;

/** GET /api/console/collections/{name}/documents. */
export const DocumentListSchema = T.Object(
  {
    documents: T.Array(DocumentItemSchema, {
      maxItems: DOCUMENT_LIST_PAGE,
      description: `by doc_id, at most ${DOCUMENT_LIST_PAGE} from ?from=`,
    }),
    next: T.Union([T.String(), T.Null()], {
      description: "the ?from= of the following documents (a doc_id); null after the last",
    }),
  },
  { description: "the collection's documents, each with its status, a page at a time" },
);

/** DELETE /api/console/collections/{name}/documents/{doc_id} 200. */
export const RemovedDocumentSchema = T.Object({ doc_id: T.String() }, { description: "the document removed" });

/** The most passages one answer of GET .../documents/{doc_id} carries; `next` pages on. */
export const DOCUMENT_PAGE_PASSAGES = 100;

/** GET /api/console/collections/{name}/documents/{doc_id}: the web app's page of a document. */
export const DocumentPageSchema = T.Object(
  {
    doc_id: T.String(),
    title: T.String(),
    collection: T.String({ description: "the collection's name" }),
    owner: T.Union([T.String(), T.Null()], { description: "the collection owner's email, or null" }),
    url: T.Union([T.String(), T.Null()], { description: "the document's own URL, if it has one" }),
    format: T.String({ description: "pdf, html, markdown, text or jsonl" }),
    chars: T.Integer({ minimum: 0 }),
    truncated: T.Boolean({ description: "true when the import kept only the document's first characters" }),
    passages: T.Array(
      T.Object({ seq: T.Integer({ minimum: 0 }), text: T.String() }, { description: "a passage, as searched" }),
      { maxItems: DOCUMENT_PAGE_PASSAGES, description: `in order, at most ${DOCUMENT_PAGE_PASSAGES} from ?from=` },
    ),
    next: T.Union([T.Integer({ minimum: 0 }), T.Null()], {
      description: "the ?from= of the following passages; null after the last",
    }),
  },
  { description: "a document's text in passages, a page at a time" },
);

export type Visibility = Static<typeof VisibilitySchema>;
export type CollectionStatus = Static<typeof CollectionStatusSchema>;
export type Collection = Static<typeof CollectionSchema>;
export type DocumentItem = Static<typeof DocumentItemSchema>;
export type DocumentList = Static<typeof DocumentListSchema>;
export type DocumentPage = Static<typeof DocumentPageSchema>;

/** This file's named schemas (components.schemas, in this order): a new one is added here only. */
export const COLLECTION_SCHEMAS = {
  Visibility: VisibilitySchema,
  CollectionStatus: CollectionStatusSchema,
  Collection: CollectionSchema,
  CollectionList: CollectionListSchema,
  CreateCollectionBody: CreateCollectionBodySchema,
  UpdateCollectionBody: UpdateCollectionBodySchema,
  CollectionAnswer: CollectionAnswerSchema,
  RemovedCollection: RemovedCollectionSchema,
  DocumentStatus: DocumentStatusSchema,
  DocumentItem: DocumentItemSchema,
  DocumentList: DocumentListSchema,
  RemovedDocument: RemovedDocumentSchema,
  DocumentPage: DocumentPageSchema,
} as const satisfies Record<string, TSchema>;
