// The HTTP server: Express in front of the Remix request handler. It owns what
// every response needs (request id, security headers, cross-site refusal, one
// log line per request) so no route can forget it. The work it starts besides answering
// requests (the daily jobs, `portal` child processes) is cli/server-jobs.ts.
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import onHeaders from "on-headers";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readConfig } from "../app/config.server";
import { readiness } from "../app/features/operations/index.server";
import { limitBodies } from "./request-body";
import { remixHandler } from "./remix-handler";
import { scheduleDaily, scheduleEvery } from "./schedule";
import { dailyJobs, frequentJobs, portalChildren } from "./server-jobs";
import { portalNow } from "../db/clock";

export type ServeOptions = { port: number; host: string; dev: boolean };

export type { RequestContext as LoadContext } from "../app/http/request-context";
import type { RequestContext as LoadContext } from "../app/http/request-context";

function securityHeaders(nonce: string, dev: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    // 'wasm-unsafe-eval': the barcode decoder of "Skanna" is WebAssembly (zxing-wasm), served from here.
    dev ? `script-src 'self' 'nonce-${nonce}' 'unsafe-inline' 'wasm-unsafe-eval'` : `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    // React Aria positions popovers with style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    dev ? "connect-src 'self' ws:" : "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    // The camera for this site only ("Skanna"); never for a frame or another origin.
    "Permissions-Policy": "camera=(self), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

/**
 * An answer is not stored unless it says otherwise: a page or file behind a login must
 * not come back from the browser's cache (JS-off Back after logout showed a retailer's
 * invoices). Static files (express.static) and public covers set their own
 * Cache-Control before the head is written, so they keep it.
 */
function noStoreUnlessSet(res: express.Response) {
  onHeaders(res, function (this: express.Response) {
    if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", "no-store");
  });
}

/** A state-changing request from another site is refused (CSRF). */
export function isCrossSite(req: express.Request): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  const fetchSite = req.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const origin = req.get("origin");
  if (origin && origin !== "null") {
    try {
      return new URL(origin).host !== req.get("host");
    } catch {
      return true;
    }
  }
  return origin === "null";
}

/**
 * Static files all have an extension; a page path ("/rapportering/1") goes straight
 * to Remix instead of costing a file-system lookup per static folder.
 */
function onlyFiles(handler: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? handler(req, res, next) : next());
}

/**
 * A built file's Brotli twin (`.br`, written at build time by vite.config.ts) for a
 * browser that takes br: the same file, smaller than the on-the-fly compression makes it.
 * Which twins exist is read once; anything else falls through to express.static.
 */
export function precompressed(dir: string): express.RequestHandler {
  const twins = new Set(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".br")).map((f) => `/${f.slice(0, -3)}`) : []);
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !twins.has(req.path)) return next();
    res.vary("Accept-Encoding");
    if (!req.acceptsEncodings("br")) return next();
    res.type(extname(req.path));
    res.setHeader("Content-Encoding", "br");
    req.url = `${req.path}.br`;
    next();
  };
}

export async function createApp(options: ServeOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Behind a proxy, TRUST_PROXY names the proxies' addresses whose X-Forwarded-For/-Proto
  // count (never a hop count); checked at start (app/config.server.ts).
  const { trustProxy, quietLog, buildDir } = readConfig(process.env, { lenient: true });
  if (trustProxy !== false) app.set("trust proxy", trustProxy);

  // For a load balancer: before the request log, the session and Remix. /healthz says the
  // process answers; /readyz that the database is writable, its migrations current and
  // (REPLICA_URL) its replica within REPLICA_MAX_LAG.
  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.status(200).type("text/plain").send("ok");
  });
  app.get("/readyz", (_req, res, next) => {
    readiness().then((r) => {
      res.setHeader("Cache-Control", "no-store");
      if (r.ready) res.status(200).type("text/plain").send(r.note ? `ready; ${r.note}` : "ready");
      else res.status(503).type("text/plain").send(`not ready: ${r.reason}`);
    }, next);
  });

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    const nonce = randomBytes(16).toString("base64");
    res.locals.requestId = requestId;
    res.locals.nonce = nonce;
    res.setHeader("X-Request-Id", requestId);
    for (const [k, v] of Object.entries(securityHeaders(nonce, options.dev))) res.setHeader(k, v);
    // Only over HTTPS (behind a proxy: TRUST_PROXY and X-Forwarded-Proto), where it means something.
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    noStoreUnlessSet(res);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (quietLog) return;
      process.stdout.write(
        JSON.stringify({
          t: new Date(portalNow()).toISOString(),
          id: requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        }) + "\n",
      );
    });
    if (isCrossSite(req)) {
      res.status(403).type("text/plain").send("Förfrågan kom från en annan webbplats och avvisades.");
      return;
    }
    next();
  });
  app.use(compression());

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (options.dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true } });
    app.use(server.middlewares);
    build = () => server.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  } else {
    const dir = resolve(buildDir);
    // eslint-disable-next-line house/barrel-dynamic-import -- the compiled build, found at run time: no module of the source
    build = (await import(pathToFileURL(`${dir}/server/index.js`).href)) as ServerBuild;
    app.use("/assets", precompressed(`${dir}/client/assets`), express.static(`${dir}/client/assets`, { immutable: true, maxAge: "1y" }));
    app.use(onlyFiles(express.static(`${dir}/client`, { maxAge: "1h" })));
  }
  app.use(onlyFiles(express.static("public", { maxAge: "1h" })));

  // Bodies are limited and checked before Remix reads them (cli/request-body.ts).
  app.use(limitBodies());
  // The CLI this server runs as: build/cli/portal.js, or cli/portal.ts under tsx.
  const portal = portalChildren(process.argv[1], process.execArgv);
  app.all(
    "*",
    remixHandler({
      build,
      mode: options.dev ? "development" : "production",
      getLoadContext: (req, res): LoadContext => ({ requestId: res.locals.requestId, nonce: res.locals.nonce, ip: req.ip ?? "", portal }),
    }),
  );
  return app;
}

/** How long an idle kept-alive connection stays open (docs/reliability.md §7). */
export const KEEP_ALIVE_MS = 65_000;

export async function serve(options: ServeOptions): Promise<import("node:http").Server> {
  const app = await createApp(options);
  return new Promise((resolve) => {
    const server = app.listen(options.port, options.host, () => {
      // A kept-alive connection outlives any client's or load balancer's idle timer (those
      // are 60 s or less): otherwise the server may close it just as a client reuses it,
      // and that request dies with ECONNRESET (Node's default is 5 s).
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.headersTimeout = KEEP_ALIVE_MS + 1000;
      const jobConfig = readConfig(process.env, { lenient: true });
      const stops = [
        ...dailyJobs(jobConfig).map((job) => (job.at ? scheduleDaily(job.name, job.at, job.run) : () => undefined)),
        ...frequentJobs(jobConfig).map((job) => scheduleEvery(job.name, job.seconds, job.run)),
      ];
      server.once("close", () => stops.forEach((stop) => stop()));
      resolve(server);
    });
  });
}
