import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { readFileSync } from "node:fs";
import { RequestContext } from "./ui/request-context";
import styles from "./styles.css?url";
import { config } from "./config.server";
import { afterFirstFrame } from "./http/page-script.server";
import { documentRetryAfter, noteRefusal, unansweredRefusal } from "./http/unanswered.server";
import { portalNow } from "../db/clock";

// No route defers data, so a render only waits for the CPU: under a flood (hundreds of
// logins at once, each writing to the database on the main thread) a 5 s limit aborted
// renders that were merely queued, answering 500. The limit stays as a last guard.
const ABORT_DELAY = 30_000;

type Ctx = AppLoadContext & { requestId?: string; nonce?: string };

/**
 * The style sheet, put in every page's <head> (root.tsx InlineStyles) so a slow phone
 * paints the page as soon as the HTML is in, instead of waiting for the sheet behind the
 * JavaScript on the same thin line (bench B9). Read once from the client build; in
 * development (Vite serves the sheet itself) there is no file and the page links it.
 */
let inlineCss: string | undefined | null = null;
function css(): string | undefined {
  if (inlineCss === null) {
    try {
      inlineCss = config.production ? readFileSync(`${config.buildDir}/client${styles}`, "utf8") : undefined;
    } catch {
      inlineCss = undefined;
    }
  }
  return inlineCss;
}

/**
 * No page defers data, so a page is complete once React has rendered all of it. It is
 * sent as one buffer with a Content-Length rather than piped through a stream in 2 KB
 * chunks, each of which cost a trip through three stream layers (bench B1).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: Ctx,
) {
  const nonce = loadContext.nonce ?? "";
  const requestId = loadContext.requestId ?? "";
  // A refusal no route answered (a busy database met by a loader): its own status, not 500.
  const refusal = unansweredRefusal(request);
  if (refusal) {
    responseStatusCode = refusal.status;
    for (const [k, v] of Object.entries(refusal.headers)) responseHeaders.set(k, v);
  }
  // A form's 503 (handleForm's busy refusal) keeps its Retry-After on the page too.
  const retryAfter = responseHeaders.has("Retry-After") ? null : documentRetryAfter(responseStatusCode, remixContext.staticHandlerContext.actionHeaders);
  if (retryAfter) responseHeaders.set("Retry-After", retryAfter);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(afterFirstFrame(Buffer.concat(chunks).toString("utf8")), { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <RequestContext.Provider value={{ nonce, requestId, css: css() }}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </RequestContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, request, requestId);
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

function logError(error: unknown, request: Request, requestId: string) {
  const message =
    error instanceof Error ? (error.stack ?? error.message) : isRouteErrorResponse(error) ? `${error.status} ${error.statusText}: ${JSON.stringify(error.data)}` : String(error);
  process.stderr.write(
    JSON.stringify({ t: new Date(portalNow()).toISOString(), id: requestId, level: "error", path: new URL(request.url).pathname, error: message }) + "\n",
  );
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // A page or data request for no route (a made-up or mangled address): Remix's own 404,
  // answered as such. Not a fault of the portal's, so not logged as one. (A 405, a form
  // posting to a route without an action, is: it is logged.)
  if (isRouteErrorResponse(error) && error.status === 404) return;
  const requestId = context.requestId ?? "-";
  if (noteRefusal(request, error)) {
    process.stderr.write(
      JSON.stringify({ t: new Date(portalNow()).toISOString(), id: requestId, level: "warn", path: new URL(request.url).pathname, error: `refused (${(error as Error).message}); answered with its status` }) + "\n",
    );
    return;
  }
  logError(error, request, requestId);
};
