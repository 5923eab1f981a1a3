import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";

// Spec 2.1: /returrapportering redirects to return reporting.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  return redirect("/rapportering/1");
}
