// The replicator (decision 039): `portal replica run` runs Litestream on the database file
// and keeps it running, and says every second how far the replica is behind, in the
// status file every app server reads (app/features/operations/replication.server.ts).
// `portal serve` starts one as its child when REPLICA_URL is set; several servers on one
// database each start one, and a lock lets only one of them replicate: the others wait,
// and the first of them takes over when the lock's holder dies.
import { createClient, type Client } from "@libsql/client";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { ReplicaSettings } from "../app/config.server";
import { isDatabaseBusy } from "../db/client";
import { litestreamBinary, redactedReplicaUrl, replicaStatusFile, type ReplicatorStatus } from "../app/features/operations/index.server";

/** A lock held for the life of this process: a SQLite file in EXCLUSIVE locking mode; the OS frees it when the process dies. */
async function takeLock(file: string): Promise<Client | null> {
  const client = createClient({ url: `file:${file}`, timeout: 50, concurrency: 1 });
  try {
    await client.execute("PRAGMA journal_mode = MEMORY");
    await client.execute("PRAGMA locking_mode = EXCLUSIVE");
    await client.execute("CREATE TABLE IF NOT EXISTS replicator (pid INTEGER)");
    await client.execute({ sql: "INSERT INTO replicator (pid) VALUES (?)", args: [process.pid] });
    return client;
  } catch (e) {
    client.close();
    if (isDatabaseBusy(e)) return null;
    throw e;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const duration = (s: number) => (s % 3600 === 0 ? `${s / 3600}h` : s % 60 === 0 ? `${s / 60}m` : `${s}s`);

/**
 * Litestream's configuration: the database, one replica, its metrics on a local port (read
 * for the lag). Checkpoints are Litestream's (its defaults: PASSIVE from 1,000 pages of WAL,
 * RESTART from 10,000); the app's connections do not checkpoint while it replicates.
 */
export function litestreamConfig(file: string, replica: ReplicaSettings, metricsPort: number): string {
  const q = JSON.stringify;
  return [
    `addr: ${q(`127.0.0.1:${metricsPort}`)}`,
    "logging:",
    "  level: warn",
    "  stderr: true",
    "dbs:",
    `  - path: ${q(file)}`,
    "    replicas:",
    "      - name: replica",
    `        url: ${q(replica.url)}`,
    `        sync-interval: ${duration(replica.syncIntervalSeconds)}`,
    `        snapshot-interval: ${duration(replica.snapshotIntervalSeconds)}`,
    `        retention: ${duration(replica.retentionSeconds)}`,
    `        retention-check-interval: ${duration(Math.min(3600, replica.retentionSeconds))}`,
    "",
  ].join("\n");
}

/** The four positions and the sync error count from Litestream's Prometheus metrics. */
export function parseMetrics(text: string): { position: NonNullable<ReplicatorStatus["position"]>; syncErrors: number } | null {
  const value = (name: string) => {
    const m = new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, "m").exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const shadowIndex = value("litestream_shadow_wal_index");
  const shadowSize = value("litestream_shadow_wal_size");
  const replicaIndex = value("litestream_replica_wal_index");
  const replicaOffset = value("litestream_replica_wal_offset");
  if ([shadowIndex, shadowSize, replicaIndex, replicaOffset].some((v) => v === undefined || Number.isNaN(v))) return null;
  return {
    position: { shadowIndex: shadowIndex!, shadowSize: shadowSize!, replicaIndex: replicaIndex!, replicaOffset: replicaOffset! },
    syncErrors: value("litestream_sync_error_count") ?? 0,
  };
}

/** Everything Litestream has read from the WAL is in the replica. */
export function caughtUp(p: NonNullable<ReplicatorStatus["position"]>): boolean {
  return p.replicaIndex > p.shadowIndex || (p.replicaIndex === p.shadowIndex && p.replicaOffset >= p.shadowSize);
}

export type ReplicatorOptions = {
  /** The database file (absolute). */
  file: string;
  replica: ReplicaSettings;
  /** Stop when this process is no longer the parent (the server that started it died). */
  parentPid?: number;
  log: (line: string) => void;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs until SIGTERM/SIGINT (or the parent's death): waits for the lock, then runs
 * Litestream, restarts it when it stops (after 1, 2, 4 … 30 s), and writes the status file
 * every second. On the way out Litestream gets SIGTERM (it ships what it has) and the
 * status file is removed, so the servers see that nobody replicates.
 */
export async function runReplicator(options: ReplicatorOptions): Promise<void> {
  const { file, replica, log } = options;
  let stopping = false;
  const stop = () => {
    stopping = true;
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  const orphaned = () => options.parentPid !== undefined && process.ppid !== options.parentPid;
  const statusFile = replicaStatusFile(file);

  let lock: Client | null = null;
  for (let said = false; !stopping && !orphaned(); said = true) {
    lock = await takeLock(join(dirname(file), `.${basename(file)}-replicator.lock`));
    if (lock) break;
    if (!said) log("replikering: en annan process replikerar redan databasen; den här väntar och tar över om den slutar.");
    await sleep(2_000);
  }
  if (!lock) return;

  const dir = mkdtempSync(join(tmpdir(), "portal-litestream-"));
  const config = join(dir, "litestream.yml");
  const status: ReplicatorStatus = {
    pid: process.pid,
    replica: redactedReplicaUrl(replica.url),
    startedAt: Date.now(),
    writtenAt: Date.now(),
    running: false,
    caughtUpAt: null,
    position: null,
    syncErrors: 0,
    lastError: null,
  };
  const writeStatus = () => {
    status.writtenAt = Date.now();
    const tmp = `${statusFile}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(status));
      renameSync(tmp, statusFile);
    } catch (e) {
      log(`replikering: statusfilen ${statusFile} går inte att skriva (${(e as Error).message})`);
    }
  };

  let child: ChildProcess | null = null;
  let port = 0;
  let restartAt = 0;
  let pause = 1_000;
  log(`replikering: ${redactedReplicaUrl(replica.url)} (Litestream, synk var ${replica.syncIntervalSeconds} s)`);
  try {
    while (!stopping && !orphaned()) {
      if (!child && Date.now() >= restartAt) {
        port = await freePort();
        writeFileSync(config, litestreamConfig(file, replica, port), { mode: 0o600 });
        chmodSync(config, 0o600);
        const started = spawn(litestreamBinary(), ["replicate", "-config", config], { stdio: ["ignore", "ignore", "pipe"], env: process.env });
        child = started;
        status.running = true;
        status.position = null;
        started.stderr?.setEncoding("utf8");
        started.stderr?.on("data", (chunk: string) => {
          for (const line of chunk.split("\n").filter(Boolean)) {
            log(`litestream: ${line}`);
            if (/error|fail|cannot/i.test(line)) status.lastError = line.replace(/^\S+ \S+ /, "").slice(0, 300);
          }
        });
        started.once("exit", (code, signal) => {
          if (child === started) child = null;
          status.running = false;
          if (!stopping) {
            status.lastError = `litestream avslutades (${signal ?? `exit ${code}`})`;
            log(`replikering: ${status.lastError}; startas igen om ${pause / 1000} s`);
            restartAt = Date.now() + pause;
            pause = Math.min(pause * 2, 30_000);
          }
        });
      }
      if (child) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
          const m = parseMetrics(await res.text());
          if (m) {
            status.position = m.position;
            if (m.syncErrors > status.syncErrors) status.lastError ??= "synkfel";
            status.syncErrors = m.syncErrors;
            if (caughtUp(m.position)) {
              status.caughtUpAt = Date.now();
              status.lastError = null;
              pause = 1_000;
            }
          }
        } catch {
          // Litestream is starting (its port not open yet) or stopping: the lag grows meanwhile.
        }
      }
      writeStatus();
      await sleep(1_000);
    }
  } finally {
    const last = child as ChildProcess | null;
    if (last && last.exitCode === null) {
      const exited = new Promise((r) => last.once("exit", r));
      last.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      if (last.exitCode === null) last.kill("SIGKILL");
    }
    rmSync(statusFile, { force: true });
    rmSync(dir, { recursive: true, force: true });
    lock.close();
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}

/**
 * `portal serve` with REPLICA_URL: the replicator as a child process (`portal replica run
 * --parent <pid>`), started again when it stops, stopped with the server.
 */
export function superviseReplicator(entry: string, nodeArgs: string[], log: (line: string) => void): () => Promise<void> {
  let child: ChildProcess | null = null;
  let stopped = false;
  let pause = 1_000;
  const start = () => {
    const c = spawn(process.execPath, [...nodeArgs, entry, "replica", "run", "--parent", String(process.pid)], { env: process.env, stdio: ["ignore", "inherit", "inherit"] });
    child = c;
    const startedAt = Date.now();
    c.once("exit", (code, signal) => {
      child = null;
      if (stopped) return;
      if (Date.now() - startedAt > 60_000) pause = 1_000;
      log(`portal: replikatorn avslutades (${signal ?? `exit ${code}`}); startas igen om ${pause / 1000} s`);
      setTimeout(() => !stopped && start(), pause).unref();
      pause = Math.min(pause * 2, 30_000);
    });
  };
  start();
  return async () => {
    stopped = true;
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
}
