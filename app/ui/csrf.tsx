import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/**
 * The session's form token as a hidden field (app/auth/csrf.server.ts). Every POST form
 * of a logged-in page carries it, as its first field: uploads are checked from the start
 * of the body.
 */
export function CsrfInput() {
  const token = useRouteLoaderData<typeof rootLoader>("root")?.csrf;
  return token ? <input type="hidden" name="csrf" value={token} /> : null;
}
