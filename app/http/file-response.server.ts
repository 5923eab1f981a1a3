// The one way a route sends a file (PDF, CSV, XLSX): its content type, an RFC 6266
// Content-Disposition that survives any file name (app/http/content-disposition.server.ts),
// and `no-store`, since every file here is someone's private data.
import { contentDisposition } from "./content-disposition.server";

export const CONTENT_TYPES = {
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

/** `content` may be a stream (a large export written as it is sent). */
export function fileResponse(content: Uint8Array | string | ReadableStream<Uint8Array>, filename: string, contentType: string, options: { inline?: boolean } = {}): Response {
  const body =
    typeof content === "string" || content instanceof ReadableStream ? content : (Buffer.from(content.buffer, content.byteOffset, content.byteLength) as unknown as BodyInit);
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": contentDisposition(filename, options.inline ? "inline" : undefined),
      "Cache-Control": "private, no-store",
    },
  });
}
