// Reading multipart uploads with a size limit, for the staff upload forms (covers,
// order files). Oversize uploads are refused before anything is stored. The server
// has already refused a body over the form's whole limit (cli/request-body.ts).
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { refuse } from "~/lib/refusal";
import { MAX_FORM_FIELDS, MAX_FORM_FILES } from "./request-limits";

export { MAX_CSV_BYTES, MAX_IMAGE_BYTES } from "./request-limits";

/** The refusal of an upload larger than `maxBytes` (413, on the form's "file" field). */
export function uploadTooLarge(maxBytes: number) {
  return refuse.tooLarge(`Filen är större än ${formatBytes(maxBytes)}.`, { field: "file" });
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} kB`;
}

/**
 * The form of a multipart request, file parts kept in memory up to `maxBytes` each.
 * Refuses ("too-large", uploadTooLarge) when the body or a part is larger; a 400 or 413
 * answer (the error page) for a body that does not parse or has too many parts.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  // The other fields and multipart boundaries need a little room beside the file.
  if (declared > maxBytes + 64 * 1024) {
    // Read and discard the oversized body before answering: answering while the
    // browser is still sending makes it see a connection reset, not the message. The
    // server has refused, unread, any body over UPLOAD_BODY_LIMITS.
    await drain(request);
    throw uploadTooLarge(maxBytes);
  }
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: maxBytes });
  let fields = 0;
  let files = 0;
  let tooMany = false;
  const counted: UploadHandler = (part) => {
    if (part.filename === undefined ? ++fields > MAX_FORM_FIELDS : ++files > MAX_FORM_FILES) {
      tooMany = true;
      throw new RangeError("too many parts");
    }
    return memory(part);
  };
  try {
    return await unstable_parseMultipartFormData(request, counted);
  } catch (e) {
    if (e instanceof MaxPartSizeExceededError) throw uploadTooLarge(maxBytes);
    if (tooMany) throw new Response("Förfrågan har för många fält eller filer och togs inte emot.", { status: 413 });
    // A body cut short, without its boundary, or over the server's limit (answered there).
    throw new Response("Formuläret kunde inte läsas. Ladda om sidan och försök igen.", { status: 400 });
  }
}

async function drain(request: Request) {
  const reader = request.body?.getReader();
  if (!reader) return;
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // the client went away
  }
}

/** The uploaded file of a form field, or null when none was chosen. */
export function uploadedFile(form: FormData, name: string): File | null {
  const value = form.get(name);
  if (!value || typeof value === "string") return null;
  return value.size > 0 || value.name ? (value as File) : null;
}
