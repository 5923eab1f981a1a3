// B18: continuous replication (decision 039) on a copy of the national database. A server
// replicating to a file replica (another directory here; another disk in production):
// how long the first snapshot takes (until /readyz says ready), the replica's lag as
// /readyz reads it while B2's saves run, what replication costs B2, and how long a restore
// of the national database from the replica takes (`restore --from-replica --check`, and a
// restore into a new file).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { DATA, startServer } from "./lib";

export type B18 = {
  dbMb: number;
  firstSnapshotS: number;
  lag: { samples: number; medianS: number; p95S: number; maxS: number };
  caughtUpAfterLoadS: number;
  checkS: number;
  restoreS: number;
};

function lagNow(file: string): number | null {
  try {
    const s = JSON.parse(readFileSync(resolve(file, "..", `.${file.split("/").pop()}-replica.json`), "utf8")) as { caughtUpAt: number | null; startedAt: number };
    return (Date.now() - (s.caughtUpAt ?? s.startedAt)) / 1000;
  } catch {
    return null;
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

/** `load` runs the saves against the replicating server (B2). */
export async function b18(dbFile: string, port: number, load: (url: string) => Promise<unknown>): Promise<B18> {
  const replicaDir = resolve(`${DATA}/replica-run`);
  rmSync(replicaDir, { recursive: true, force: true });
  const env = { REPLICA_URL: `file://${replicaDir}`, REPLICA_MAX_LAG: "30s" };
  Object.assign(process.env, env);
  const started = performance.now();
  const server = await startServer(dbFile, port);
  let stopped = false;
  try {
    for (;;) {
      if ((await fetch(`${server.url}/readyz`)).status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const firstSnapshotS = (performance.now() - started) / 1000;
    const samples: number[] = [];
    const timer = setInterval(() => {
      const lag = lagNow(resolve(dbFile));
      if (lag !== null) samples.push(lag);
    }, 100);
    await load(server.url);
    clearInterval(timer);
    const after = performance.now();
    for (;;) {
      const lag = lagNow(resolve(dbFile));
      if (lag !== null && lag < 1.5) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const caughtUpAfterLoadS = (performance.now() - after) / 1000;
    await server.stop();
    stopped = true;
    const cli = (args: string[], databaseUrl: string) => {
      const t = performance.now();
      const r = spawnSync(process.execPath, ["build/cli/portal.js", ...args], { env: { ...process.env, ...env, DATABASE_URL: databaseUrl, NODE_ENV: "production" }, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`B18: ${args.join(" ")}: ${r.stderr}`);
      return (performance.now() - t) / 1000;
    };
    const checkS = cli(["restore", "--from-replica", "--check"], `file:${dbFile}`);
    const target = `${DATA}/restored-from-replica.db`;
    for (const s of ["", "-wal", "-shm"]) rmSync(target + s, { force: true });
    const restoreS = cli(["restore", "--from-replica"], `file:${target}`);
    for (const s of ["", "-wal", "-shm"]) rmSync(target + s, { force: true });
    return {
      dbMb: statSync(dbFile).size / 1024 / 1024,
      firstSnapshotS,
      lag: { samples: samples.length, medianS: quantile(samples, 0.5), p95S: quantile(samples, 0.95), maxS: Math.max(0, ...samples) },
      caughtUpAfterLoadS,
      checkS,
      restoreS,
    };
  } finally {
    if (!stopped) await server.stop();
    for (const k of Object.keys(env)) delete process.env[k];
    rmSync(replicaDir, { recursive: true, force: true });
  }
}
