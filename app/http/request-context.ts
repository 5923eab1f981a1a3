// What the HTTP server (cli/serve.ts) knows about a request and hands to every loader
// and action as Remix's load context: its id (in every log line and audit row), the
// client's address (TRUST_PROXY decides whose X-Forwarded-For counts), the CSP nonce, and
// how to run a long job outside the server's event loop.
// Passed explicitly, `requireRetailer(request, context)`; there is no global store.
import type { AppLoadContext } from "@remix-run/node";
import type { PortalCommand } from "~/lib/portal-command";

export type RequestContext = {
  requestId: string;
  ip: string;
  nonce: string;
  /** Long jobs off the server's event loop: `portal <args>` as the server's child process. */
  portal?: PortalCommand;
};

declare module "@remix-run/node" {
  interface AppLoadContext extends Partial<RequestContext> {}
}

/** The request's facts; blanks where a caller (a unit test) built no context. */
export function requestContext(context: AppLoadContext | undefined): RequestContext {
  return { requestId: context?.requestId ?? "-", ip: context?.ip ?? "", nonce: context?.nonce ?? "" };
}
