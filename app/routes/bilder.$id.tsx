// Cover images from the images table. Published images are public (retailers'
// Aktuella produkter); pending uploads are served to staff only. An image row never
// changes, so its sha256 is a strong ETag.
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/auth/guards.server";
import { contentDisposition } from "~/http/content-disposition.server";
import { getImage } from "~/features/products/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = routeParam(params, "id", parseId, "Bilden finns inte.");
  const user = await getUser(request);
  // Pending covers are for staff who may work: not a login that must first replace its one-time password.
  const staff = user?.kind === "staff" && !user.mustChangePassword;
  const image = await getImage(id, staff);
  if (!image) throw new Response("Bilden finns inte.", { status: 404 });
  const etag = `"${image.sha256}"`;
  // Pending uploads are staff-only, so a staff answer is not stored at all; a published
  // cover is the same for everybody, logged in or not, and may be cached anywhere.
  const headers = {
    "Content-Type": image.contentType,
    "Cache-Control": staff ? "no-store" : "public, max-age=86400",
    // The uploader's file name, for "Spara bild som…" (any characters: see the helper).
    "Content-Disposition": contentDisposition(image.filename, "inline"),
    ETag: etag,
    // nosniff comes from the server (cli/serve.ts) on every answer; a second copy here doubled the header.
  };
  const match = request.headers.get("If-None-Match");
  if (match && match.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(image.data), { headers });
}
