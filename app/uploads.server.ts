// Reading multipart uploads with a size limit, for the staff upload forms (covers,
// order files). Oversize uploads are refused before anything is stored.
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

export class UploadTooLargeError extends Error {}

/**
 * The form of a multipart request, file parts kept in memory up to `maxBytes` each.
 * Throws UploadTooLargeError when the body or a part is larger; a body that
 * declares itself far too large is refused without being read.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  // The other fields and multipart boundaries need a little room beside the file.
  if (declared > maxBytes + 64 * 1024) {
    // Read and discard a moderately oversized body before answering: answering while
    // the browser is still sending makes it see a connection reset, not the message.
    // A body far too large is refused unread.
    if (declared <= maxBytes * 8) await drain(request);
    throw new UploadTooLargeError();
  }
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  try {
    return await unstable_parseMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: maxBytes }));
  } catch (e) {
    if (e instanceof MaxPartSizeExceededError) throw new UploadTooLargeError();
    throw e;
  }
}

async function drain(request: Request) {
  const reader = request.body?.getReader();
  if (!reader) return;
  for (;;) if ((await reader.read()).done) return;
}

/** The uploaded file of a form field, or null when none was chosen. */
export function uploadedFile(form: FormData, name: string): File | null {
  const value = form.get(name);
  if (!value || typeof value === "string") return null;
  return value.size > 0 || value.name ? (value as File) : null;
}
