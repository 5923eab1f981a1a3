import type { LoaderFunctionArgs } from "@remix-run/node";
import { appVariantRedirect, papersTarget } from "~/http/app-variant.server";

// The app variant's /papers/{reportState} (retailer spec §2.1): see app/http/app-variant.server.ts.
export const loader = ({ request, params }: LoaderFunctionArgs) => appVariantRedirect(request, papersTarget(params.reportState));
