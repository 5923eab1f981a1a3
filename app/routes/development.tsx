import type { LoaderFunctionArgs } from "@remix-run/node";
import { APP_VARIANT_PATHS, appVariantRedirect } from "~/http/app-variant.server";

// The app variant's /development (retailer spec §2.1): see app/http/app-variant.server.ts.
export const loader = ({ request }: LoaderFunctionArgs) => appVariantRedirect(request, APP_VARIANT_PATHS["/development"]);
