// Request bodies are limited before they are read and checked before Remix sees them,
// so no action reads an unbounded body or trips over one no form sends:
// - larger than its limit (Content-Length up front, bytes counted while a chunked body
//   streams): 413, and the connection is closed;
// - not a form (JSON, text/plain, XML, no Content-Type with a body): 415;
// - a form that does not parse (multipart cut short or without its boundary, broken
//   percent-encoding, invalid UTF-8): 400;
// - more than MAX_FORM_FIELDS fields or MAX_FORM_FILES files: 413.
// Each answer is a Swedish HTML page. An ordinary form (≤ 64 kB) is read here whole
// and handed to Remix as a buffer; the multipart body of an upload form streams to its
// route through a byte counter and is parsed there (app/http/uploads.server.ts). The limits
// are in app/http/request-limits.ts; the handler that hands the checked body to Remix is
// cli/remix-handler.ts.
import type express from "express";
import { FORM_BODY_LIMIT, MAX_FORM_FIELDS, MAX_FORM_FILES, UPLOAD_BODY_LIMITS } from "../app/http/request-limits";

/**
 * After a refusal the client may still be sending. The answer is followed by a FIN and
 * what still arrives is thrown away, for at most this long and this much, before the
 * connection is closed ("lingering close", as Apache and nginx do): closing at once,
 * with unread bytes, makes the kernel send a reset that can destroy the answer before
 * the client has read it. A browser stops sending when it reads the answer; on
 * localhost a client gets ~4 MB out before it notices, and on a loaded machine 16 MB
 * (a reset there took the answer with it), so the byte bound is larger still.
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 32 * 1024 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

type BodyRefused = { status: 400 | 413 | 415; title: string; text: string };

const BROKEN: BodyRefused = { status: 400, title: "Formuläret kunde inte läsas", text: "Formuläret kom fram trasigt eller ofullständigt. Ladda om sidan och försök igen." };
const TOO_LARGE: BodyRefused = {
  status: 413,
  title: "För mycket data",
  text: "Förfrågan är för stor och togs inte emot. Ett formulär får vara högst 64 kB, en omslagsbild högst 2 MB och en beställningsfil högst 5 MB.",
};
const TOO_MANY: BodyRefused = { status: 413, title: "För många fält", text: "Förfrågan har för många fält eller filer och togs inte emot." };
const NOT_A_FORM: BodyRefused = { status: 415, title: "Fel format", text: "Förfrågan har ett format som portalen inte tar emot. Skicka formuläret från portalens egna sidor." };

function page(r: BodyRefused): string {
  return `<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${r.title} – Returportalen</title></head><body><main class="page narrow"><h1>${r.title}</h1><p>${r.text}</p><p><a href="/">Till startsidan</a></p></main></body></html>`;
}

/** The body limit of a multipart post to an upload form's path, else undefined. */
function uploadLimit(path: string): number | undefined {
  return UPLOAD_BODY_LIMITS[path.toLowerCase().replace(/\.data$/, "").replace(/(.)\/+$/, "$1")];
}

/** Answers with the refusal page and closes the connection gently (see LINGER_MS). */
function refuse(req: express.Request, res: express.Response, r: BodyRefused) {
  const socket = req.socket;
  // Nobody reads the rest of the body: it is counted and thrown away.
  req.removeAllListeners("data");
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  // Node ends a "Connection: close" answer with destroySoon(): made a half-close here.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  res.status(r.status).set({ "Content-Type": "text/html; charset=utf-8", Connection: "close", "Cache-Control": "no-store" }).send(page(r));
}

/** The whole body, or "too-large" once it passes `limit`, or null when the client went away. */
function readWhole(req: express.Request, limit: number): Promise<Buffer | "too-large" | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const settle = (v: Buffer | "too-large" | null) => {
      req.off("data", onData).off("end", onEnd).off("close", onClose);
      resolve(v);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) settle("too-large");
      else chunks.push(chunk);
    };
    const onEnd = () => settle(Buffer.concat(chunks, seen));
    const onClose = () => settle(null);
    req.on("data", onData).once("end", onEnd).once("close", onClose);
  });
}

/** Why a whole form body cannot be read as the form it says it is, or null. */
async function formProblem(type: string, contentType: string, body: Buffer): Promise<BodyRefused | null> {
  if (type === "application/x-www-form-urlencoded") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      return BROKEN;
    }
    const pairs = text.split("&").filter((p) => p !== "");
    if (pairs.length > MAX_FORM_FIELDS) return TOO_MANY;
    // A browser percent-encodes every byte it must: a stray % or an encoded byte
    // sequence that is not UTF-8 (%E0%A4%A) was not sent by a form.
    for (const p of pairs) {
      try {
        decodeURIComponent(p.replace(/\+/g, " "));
      } catch {
        return BROKEN;
      }
    }
    return null;
  }
  let form: FormData;
  try {
    // The parser the actions' request.formData() uses: what passes here parses there.
    form = await new Response(body as unknown as BodyInit, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return BROKEN;
  }
  let fields = 0;
  let files = 0;
  for (const [, value] of form) {
    if (typeof value === "string") fields++;
    else files++;
  }
  return fields > MAX_FORM_FIELDS || files > MAX_FORM_FILES ? TOO_MANY : null;
}

/**
 * The body of an upload form, streamed to the route through a counter: past `limit`
 * the stream fails and the request is refused (413). A body the route does not read
 * (a refused login, an error) is still counted while it is thrown away.
 */
function countedBody(req: express.Request, res: express.Response, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > limit) {
            if (open) controller.error(new Error("request body over its limit"));
            open = false;
            refuse(req, res, TOO_LARGE);
          } else if (open) {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 1) <= 0) req.pause();
          }
        });
        req.once("end", () => {
          if (open) controller.close();
          open = false;
        });
        req.once("error", (e) => {
          if (open) controller.error(e);
          open = false;
        });
        res.once("finish", () => {
          open = false;
          req.resume();
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        req.resume();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

/** The middleware: puts the checked body in `res.locals.body` for remixHandler. */
export function limitBodies(): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    // A request that would make Node answer 400 for its framing never gets here.
    req.on("error", () => undefined);
    const declared = req.headers["content-length"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || (declared !== undefined && declared !== "0");
    // No body and no type is an empty form (a button-only form sent by a script).
    if (!hasBody && !req.headers["content-type"]) req.headers["content-type"] = "application/x-www-form-urlencoded";
    const contentType = req.headers["content-type"] ?? "";
    const type = contentType.split(";")[0].trim().toLowerCase();
    if (!FORM_TYPES.has(type)) return refuse(req, res, NOT_A_FORM);
    const upload = type === "multipart/form-data" ? uploadLimit(req.path) : undefined;
    const limit = upload ?? FORM_BODY_LIMIT;
    if (declared !== undefined && Number(declared) > limit) return refuse(req, res, TOO_LARGE);
    if (upload !== undefined) {
      res.locals.body = countedBody(req, res, limit);
      return next();
    }
    readWhole(req, limit)
      .then(async (body) => {
        if (body === null) return;
        if (body === "too-large") return refuse(req, res, TOO_LARGE);
        const problem = await formProblem(type, contentType, body);
        if (problem) return refuse(req, res, problem);
        res.locals.body = body;
        next();
      })
      .catch(next);
  };
}
