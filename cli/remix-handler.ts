// The Remix request handler of @remix-run/express, kept here because one line differs: a
// body that limitBodies (cli/request-body.ts) has read and checked is taken from
// `res.locals.body` instead of being read from `req` again. Everything else follows
// upstream's dist/server.js; tests/unit/remix-handler-follows-upstream.test.ts fails when
// the installed upstream changes, so the two are compared again at every upgrade.
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type express from "express";

/**
 * The Remix request handler of @remix-run/express 2.17 (whose request and response
 * helpers it follows), except that a body checked by limitBodies is taken from
 * `res.locals.body` rather than read from `req` again.
 */
export function remixHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: express.Request, res: express.Response) => AppLoadContext;
}): express.RequestHandler {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      const response = await handle(remixRequest(req, res), options.getLoadContext(req, res));
      // A body refused while the action read it has been answered already (413).
      if (res.headersSent) return;
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      if (res.headersSent) return;
      next(error);
    }
  };
}

/**
 * The host header the request's URL is built from, as Express reads req.hostname: the first
 * X-Forwarded-Host only when the peer is a trusted proxy (TRUST_PROXY), else Host.
 */
export function requestHost(req: express.Request): string | undefined {
  const trust = req.app.get("trust proxy fn") as ((address: string | undefined, hop: number) => boolean) | undefined;
  const forwarded = req.get("X-Forwarded-Host");
  if (forwarded && trust?.(req.socket.remoteAddress, 0)) return forwarded.split(",")[0].trim();
  return req.get("host");
}

export function remixRequest(req: express.Request, res: express.Response): Request {
  // req.hostname leaves out the port: take it from the same header Express read the name from.
  const port = Number.parseInt(requestHost(req)?.match(/:(\d+)$/)?.[1] ?? "", 10);
  const url = new URL(`${req.protocol}://${req.hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else if (values) headers.set(key, values);
  }
  // Actions and loaders are aborted when the answer can no longer be written.
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = res.locals.body as Buffer | ReadableStream<Uint8Array> | undefined;
    init.body = (body ?? createReadableStreamFromReadable(req)) as BodyInit;
    init.duplex = "half";
  }
  return new Request(url.href, init);
}
