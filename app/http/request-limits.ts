// How much a request may send. The server refuses a larger body before reading it
// (cli/request-body.ts: 413, Swedish page, connection closed); the upload forms check
// their file against the file limit and answer with their own message
// (app/uploads.server.ts). docs/reliability.md, "Request limits".

/** Every ordinary form, urlencoded or multipart. */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Fields (name=value pairs or multipart parts without a file) in one body. */
export const MAX_FORM_FIELDS = 1000;
/** Files in one multipart body (the upload forms send one). */
export const MAX_FORM_FILES = 3;

/** A cover image (Dagens produkter). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** An order CSV (Fakturering, Exponeringsutrustning). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

/**
 * The multipart bodies of the upload forms, by path: four times the file limit, so a
 * file a little too large still reaches the form and gets its own message ("Filen är
 * större än 2 MB."); beyond this the server answers 413. Urlencoded posts to these
 * paths (the invoice page's other forms) have the ordinary limit.
 */
export const UPLOAD_BODY_LIMITS: Readonly<Record<string, number>> = {
  "/admin/dailyproducts": 4 * MAX_IMAGE_BYTES + FORM_BODY_LIMIT,
  "/admin/invoice": 4 * MAX_CSV_BYTES + FORM_BODY_LIMIT,
};
