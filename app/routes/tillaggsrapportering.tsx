import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";

// Spec 2.1: /tillaggsrapportering redirects to additions.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  return redirect("/rapportering/2");
}
