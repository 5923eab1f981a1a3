import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailer } from "~/auth/guards.server";

// Spec 2.1: /mina-tjanster opens the delivery note.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  return redirect("/foljesedel");
}
