import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { RequestContext } from "./ui/request-context";
import { requestInfo } from "./request-context.server";

const ABORT_DELAY = 5_000;

type Ctx = AppLoadContext & { requestId?: string; nonce?: string };

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: Ctx,
) {
  const nonce = loadContext.nonce ?? "";
  const requestId = loadContext.requestId ?? "";
  const waitForAll = isbot(request.headers.get("user-agent") || "") || remixContext.isSpaMode;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RequestContext.Provider value={{ nonce, requestId }}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </RequestContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          // A finished render needs no abort; left armed, the timer kept every response's render state alive for 5 s.
          body.on("close", () => clearTimeout(timer));
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, request);
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

function logError(error: unknown, request: Request) {
  const { requestId } = requestInfo();
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    JSON.stringify({ t: new Date().toISOString(), id: requestId, level: "error", path: new URL(request.url).pathname, error: message }) + "\n",
  );
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  logError(error, request);
};
