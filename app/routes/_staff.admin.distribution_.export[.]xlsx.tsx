// The distribution Excel export, streamed as it is written (bench B4).
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { PassThrough } from "node:stream";
import { requireStaff } from "~/auth/guards.server";
import { contentDisposition } from "~/content-disposition.server";
import { today } from "~/domain/dates";
import { outsideScope } from "~/domain/distribution.server";
import { parseDistributionParams, scopeFor } from "~/domain/distribution-params.server";
import { writeDistributionXlsx } from "~/documents/distribution-xlsx.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const t = today();
  const parsed = parseDistributionParams(new URL(request.url).searchParams, { from: t, to: t });
  if (parsed.errors) throw new Response(Object.values(parsed.errors).join(" "), { status: 400 });
  const query = parsed.query;
  if (outsideScope(query.distributorIds, scope)) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });

  const body = new PassThrough();
  writeDistributionXlsx(body, query, scope).catch((error) => {
    console.error(error);
    body.destroy(error as Error);
  });
  const suffix = query.distributorIds.length === 1 ? `-utb${query.distributorIds[0]}` : "";
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": contentDisposition(`distribution-${query.from}-${query.to}${suffix}.xlsx`),
      "Cache-Control": "private, no-store",
    },
  });
}
