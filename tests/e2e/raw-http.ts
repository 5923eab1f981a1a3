// Requests with exactly the bytes and headers a test gives: no Content-Type, Origin or
// Content-Length added behind its back (Playwright's request context and fetch both
// add some), for malformed bodies and for bodies streamed without end.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string; ms: number };

/** One request; `body` undefined sends none. Resolves with the whole answer. */
export function raw(baseURL: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseURL), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

export type StreamResult = {
  /** Status of the answer, 0 when the connection ended without one. */
  status: number;
  body: string;
  /** Milliseconds from the first byte sent to the answer's head. */
  msToAnswer: number;
  /** Bytes written before the server answered, and in all. */
  sentBeforeAnswer: number;
  sent: number;
  /** Milliseconds until the connection was closed (by either side), or the test gave up. */
  msToClose: number;
};

/**
 * Streams up to `total` bytes as one request body, as fast as the server takes them,
 * with the given headers (no Content-Length: chunked). Like a browser, it stops sending
 * once the answer's head has come. Resolves when the connection is closed or after
 * `giveUpMs`.
 */
export function streamBody(
  baseURL: string,
  path: string,
  headers: Record<string, string>,
  total: number,
  opts: { giveUpMs?: number; prefix?: Buffer } = {},
): Promise<StreamResult> {
  const giveUpMs = opts.giveUpMs ?? 60_000;
  const started = Date.now();
  const piece = Buffer.alloc(64 * 1024, "a=");
  return new Promise((resolve) => {
    const out: StreamResult = { status: 0, body: "", msToAnswer: -1, sentBeforeAnswer: 0, sent: 0, msToClose: -1 };
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      out.msToClose = Date.now() - started;
      clearTimeout(timer);
      resolve(out);
    };
    const timer = setTimeout(() => {
      req.destroy();
      finish();
    }, giveUpMs);
    const req = httpRequest(new URL(path, baseURL), { method: "POST", headers, agent: false }, (res) => {
      out.status = res.statusCode ?? 0;
      out.msToAnswer = Date.now() - started;
      out.sentBeforeAnswer = out.sent;
      res.on("data", (c: Buffer) => (out.body += c.toString("utf8")));
      res.on("error", () => undefined);
      // A browser that has its answer stops sending and closes the connection.
      res.on("end", () => req.destroy());
    });
    req.on("error", () => finish());
    req.on("close", () => finish());
    if (opts.prefix) {
      out.sent += opts.prefix.length;
      req.write(opts.prefix);
    }
    const pump = () => {
      while (!closed && out.sent < total && out.msToAnswer < 0) {
        out.sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!closed && out.msToAnswer < 0) req.end();
    };
    pump();
  });
}

/**
 * A client that never stops: a raw socket that sends the request head and then body
 * bytes (chunked unless `headers` has a Content-Length) as fast as it can, reading
 * nothing but the status line, until the server closes the connection, `total` bytes
 * are out, or `giveUpMs` passes.
 */
export function floodSocket(baseURL: string, path: string, headers: Record<string, string>, total: number, giveUpMs = 30_000): Promise<StreamResult> {
  const started = Date.now();
  const u = new URL(baseURL);
  const chunked = !Object.keys(headers).some((h) => h.toLowerCase() === "content-length");
  const piece = Buffer.alloc(64 * 1024, "a=");
  const frame = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
  return new Promise((resolve) => {
    const out: StreamResult = { status: 0, body: "", msToAnswer: -1, sentBeforeAnswer: 0, sent: 0, msToClose: -1 };
    let closed = false;
    const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
    const finish = () => {
      if (closed) return;
      closed = true;
      out.msToClose = Date.now() - started;
      clearTimeout(timer);
      socket.destroy();
      resolve(out);
    };
    const timer = setTimeout(finish, giveUpMs);
    socket.on("data", (c: Buffer) => {
      out.body += c.toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(out.body);
      if (m && out.status === 0) {
        out.status = Number(m[1]);
        out.msToAnswer = Date.now() - started;
        out.sentBeforeAnswer = out.sent;
      }
    });
    socket.on("error", finish);
    socket.on("close", finish);
    // The server's FIN (its half of a lingering close): keep sending regardless.
    socket.on("end", () => undefined);
    const head = [`POST ${path} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), ...(chunked ? ["Transfer-Encoding: chunked"] : []), "", ""].join("\r\n");
    socket.write(head);
    const pump = () => {
      while (!closed && out.sent < total) {
        out.sent += piece.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
    };
    socket.once("connect", pump);
  });
}

/** The process listening on 127.0.0.1:`port` (Linux: /proc/net/tcp and the fd links). */
export function pidListeningOn(port: number): number | null {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address ends in :PORT, state 0A is LISTEN, column 9 the inode.
      if (cols.length > 9 && cols[1].endsWith(`:${hex}`) && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        // the fd closed meanwhile
      }
    }
  }
  return null;
}

/** Resident memory of a process in MB (VmRSS), or NaN when it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}
