// B14: what other people's pages cost while the server is pushed from outside its
// requests. (1) Three clients each stream a 200 MB body at once, over and over, for 8 s:
// the body limits refuse them (413) before anything is buffered. (2) Another process (an
// operator's import, a backup) holds the database's write lock for 6 s: reads need no lock.
// The functional tests (tests/e2e/request-limits.http.spec.ts, write-limits.http.spec.ts)
// check the answers; the times are measured here, on the production build.
import { createClient } from "@libsql/client";
import { request } from "node:http";
import { SMOKE } from "./lib";

const MB = 1024 * 1024;

export type B14 = { floodReads: number[]; floodBodies: number; lockReads: number[]; lockHeldMs: number };

/** One POST streaming `bytes` of form body in 64 kB writes until the server answers or closes. */
function streamBody(url: string, path: string, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    const u = new URL(path, url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" } });
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve(status);
    };
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    req.on("error", () => finish(0));
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const write = () => {
      while (!done && sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      if (!done) req.end();
    };
    write();
  });
}

async function timedReads(url: string, whileTrue: () => boolean): Promise<number[]> {
  const reads: number[] = [];
  while (whileTrue()) {
    for (const path of ["/login", "/kontakt"]) {
      const t0 = performance.now();
      const res = await fetch(`${url}${path}`, { headers: { "X-Forwarded-For": "10.1.1.2" } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      reads.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return reads;
}

export async function b14(url: string, dbFile: string): Promise<B14> {
  // (1) The body flood.
  const floodUntil = Date.now() + (SMOKE ? 1_000 : 8_000);
  let floodBodies = 0;
  const flooder = async () => {
    while (Date.now() < floodUntil) {
      await streamBody(url, "/login", 200 * MB);
      floodBodies++;
    }
  };
  const [floodReads] = await Promise.all([timedReads(url, () => Date.now() < floodUntil), flooder(), flooder(), flooder()]);

  // (2) The write lock held by another process's connection.
  const other = createClient({ url: `file:${dbFile}` });
  const lock = await other.transaction("write");
  await lock.execute("insert into audit_log (actor, action) values ('bench', 'bench.lock')");
  const held = performance.now();
  const lockUntil = Date.now() + (SMOKE ? 1_000 : 6_000);
  const lockReads = await timedReads(url, () => Date.now() < lockUntil);
  const lockHeldMs = performance.now() - held;
  await lock.rollback();
  other.close();
  return { floodReads, floodBodies, lockReads, lockHeldMs };
}
