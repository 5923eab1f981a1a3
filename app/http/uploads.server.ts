// Reading multipart uploads with a size limit, for the staff upload forms (covers,
// order files). Oversize uploads are refused before anything is stored. The server
// has already refused a body over the form's whole limit (cli/request-body.ts).
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { cleanUploadName } from "~/lib/form-fields";
import { refuse } from "~/lib/refusal";
import { FORM_BODY_LIMIT, MAX_FORM_FIELDS, MAX_FORM_FILES } from "./request-limits";

export { MAX_CSV_BYTES, MAX_IMAGE_BYTES } from "./request-limits";

/** The refusal of an upload larger than `maxBytes` (413, on the form's "file" field). */
export function uploadTooLarge(maxBytes: number) {
  return refuse.tooLarge(`Filen är större än ${formatBytes(maxBytes)}.`, { field: "file" });
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} kB`;
}

/**
 * The form of a multipart request, file parts kept in memory up to `maxBytes` each. A
 * file over the limit is read to its end and left out of the form, and its field is
 * recorded (oversizedFields), so the form's other fields still arrive and the answer can
 * keep everything else typed. A 400 or 413 answer (the error page) for a body
 * that does not parse or has too many parts. The server has refused, unread, a body over
 * the path's UPLOAD_BODY_LIMITS.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: FORM_BODY_LIMIT });
  let fields = 0;
  let files = 0;
  let tooMany = false;
  const oversized: string[] = [];
  const counted: UploadHandler = async (part) => {
    if (part.filename === undefined ? ++fields > MAX_FORM_FIELDS : ++files > MAX_FORM_FILES) {
      tooMany = true;
      throw new RangeError("too many parts");
    }
    if (part.filename === undefined) return memory(part);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (size <= maxBytes) chunks.push(chunk);
    }
    if (size > maxBytes) {
      oversized.push(part.name);
      return undefined;
    }
    // The name as it will be stored and served: no path, no control or direction characters
    // (an empty name, a file input left empty, stays empty: uploadedFile sees no file).
    return new File(chunks as BlobPart[], part.filename === "" ? "" : cleanUploadName(part.filename, "fil"), { type: part.contentType });
  };
  try {
    const form = await unstable_parseMultipartFormData(request, counted);
    if (oversized.length) oversizedByForm.set(form, oversized);
    return form;
  } catch (e) {
    if (e instanceof MaxPartSizeExceededError) throw new Response("Förfrågan är för stor och togs inte emot.", { status: 413 });
    if (tooMany) throw new Response("Förfrågan har för många fält eller filer och togs inte emot.", { status: 413 });
    // A body cut short, without its boundary, or over the server's limit (answered there).
    throw new Response("Formuläret kunde inte läsas. Ladda om sidan och försök igen.", { status: 400 });
  }
}

const oversizedByForm = new WeakMap<FormData, string[]>();

/** The file fields of an upload form whose file was over the limit (and so left out). */
export function oversizedFields(form: FormData): string[] {
  return oversizedByForm.get(form) ?? [];
}


/** The uploaded file of a form field, or null when none was chosen. */
export function uploadedFile(form: FormData, name: string): File | null {
  const value = form.get(name);
  if (!value || typeof value === "string") return null;
  return value.size > 0 || value.name ? (value as File) : null;
}
