// The distribution Excel export, streamed as it is written (bench B4).
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { PassThrough } from "node:stream";
import { requireStaff } from "~/auth/guards.server";
import { CONTENT_TYPES, fileResponse } from "~/http/file-response.server";
import { today } from "~/lib/dates";
import { outsideScope, parseDistributionParams, scopeFor, writeDistributionXlsx } from "~/features/distribution/index.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const t = today();
  const parsed = parseDistributionParams(request, { from: t, to: t });
  if (parsed.errors) throw new Response(Object.values(parsed.errors).join(" "), { status: 400 });
  const query = parsed.query;
  if (outsideScope(query.distributorIds, scope)) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  const body = new PassThrough();
  writeDistributionXlsx(body, query, scope).catch((error) => {
    console.error(error);
    body.destroy(error as Error);
  });
  const suffix = query.distributorIds.length === 1 ? `-utb${query.distributorIds[0]}` : "";
  return fileResponse(createReadableStreamFromReadable(body), `distribution-${query.from}-${query.to}${suffix}.xlsx`, CONTENT_TYPES.xlsx);
}
