// Cover images (resource route). Published covers are public newspaper fronts, so
// they are served without login and cached by browsers and proxies for a day;
// the ETag is the content's SHA-256, so an unchanged image answers 304.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getPublishedImage } from "~/domain/current-products.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = Number(params.id);
  if (!/^\d{1,9}$/.test(params.id ?? "") || !Number.isSafeInteger(id)) throw new Response("Bilden finns inte.", { status: 404 });
  const image = await getPublishedImage(id);
  if (!image) throw new Response("Bilden finns inte.", { status: 404 });
  const etag = `"${image.sha256}"`;
  const headers = {
    "Content-Type": image.contentType,
    "Cache-Control": "public, max-age=86400",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("If-None-Match")?.split(/\s*,\s*/).includes(etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(image.data), { headers: { ...headers, "Content-Length": String(image.data.length) } });
}
