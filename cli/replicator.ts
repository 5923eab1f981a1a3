// The replicator (decision 039): `portal replica run` runs Litestream on the database file
// and keeps it running, and says every second how far the replica is behind, in the
// status file every app server reads (app/features/operations/replication.server.ts).
// `portal serve` starts one as its child when REPLICA_URL is set; several servers on one
// database each start one, and a lock lets only one of them replicate: the others wait,
// and the first of them takes over when the lock's holder dies.
import { createClient, type Client } from "@libsql/client";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/**
 * A Litestream a replicator before this one left running: one that hung (it then ignores
 * SIGTERM) and outlived a replicator that was killed. Two would corrupt each other's copy
 * of the WAL, so the new lock holder kills it first; it is known by the process id the last
 * holder wrote and by its command line.
 */
function killLeftover(pidFile: string, log: (line: string) => void) {
  try {
    const pid = Number(readFileSync(pidFile, "utf8"));
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (cmdline.includes("litestream") && cmdline.includes("replicate")) {
      process.kill(pid, "SIGKILL");
      log(`replikering: en kvarlämnad Litestream (pid ${pid}) stoppades`);
    }
  } catch {
    // None recorded, or gone.
  }
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
    "  level: info",
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

/** The replica's position and the sync error count from Litestream's Prometheus metrics (no position before its first write). */
export function parseMetrics(text: string): { replica: { index: number; offset: number } | null; syncErrors: number } {
  const value = (name: string) => {
    const m = new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, "m").exec(text);
    return m && !Number.isNaN(Number(m[1])) ? Number(m[1]) : undefined;
  };
  const index = value("litestream_replica_wal_index");
  const offset = value("litestream_replica_wal_offset");
  return { replica: index === undefined || offset === undefined ? null : { index, offset }, syncErrors: value("litestream_sync_error_count") ?? 0 };
}

/**
 * Where Litestream's local copy of the WAL (the shadow WAL) ends: its current file's index
 * and size. Read from its directory beside the database (`.<file>-litestream`), because the
 * size metric adds up every shadow file it still keeps.
 */
export function shadowPosition(file: string): { index: number; size: number } | null {
  const meta = join(dirname(file), `.${basename(file)}-litestream`);
  try {
    const generation = readFileSync(join(meta, "generation"), "utf8").trim();
    const wal = join(meta, "generations", generation, "wal");
    const index = Math.max(...readdirSync(wal).filter((f) => /^[0-9a-f]{8}\.wal$/.test(f)).map((f) => parseInt(f.slice(0, 8), 16)));
    if (!Number.isFinite(index)) return null;
    return { index, size: statSync(join(wal, `${index.toString(16).padStart(8, "0")}.wal`)).size };
  } catch {
    return null;
  }
}

/** Everything Litestream has read from the WAL is in the replica. */
export function caughtUp(shadow: { index: number; size: number }, replica: { index: number; offset: number }): boolean {
  return replica.index > shadow.index || (replica.index === shadow.index && replica.offset >= shadow.size);
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
  const pidFile = join(dirname(file), `.${basename(file)}-litestream.pid`);
  killLeftover(pidFile, log);

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
  let childStartedAt = 0;
  // Litestream says when a write to the replica starts and when it is done. Version 0.3 can
  // hang for good on a write that failed (its writer waits on a pipe nobody reads): a write
  // that has not finished after the longer of REPLICA_MAX_LAG and 10 s gets Litestream
  // restarted, and it goes on from where the replica stands.
  let writeStartedAt: number | null = null;
  let wrote = false;
  const stallMs = Math.max(10_000, replica.maxLagSeconds * 1000);
  // A fresh Litestream ships what the replica lacks within its first sync: if it has started
  // no write by then, the replica had everything.
  const settleMs = 2_000 * replica.syncIntervalSeconds + 2_000;
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
        status.litestreamPid = started.pid;
        if (started.pid) writeFileSync(pidFile, String(started.pid));
        childStartedAt = Date.now();
        writeStartedAt = null;
        wrote = false;
        status.running = true;
        started.stderr?.setEncoding("utf8");
        started.stderr?.on("data", (chunk: string) => {
          for (const line of chunk.split("\n").filter(Boolean)) {
            if (child !== started) continue;
            if (line.includes('msg="write wal segment"') || line.includes('msg="write snapshot"')) {
              writeStartedAt ??= Date.now();
              continue;
            }
            if (line.includes('msg="wal segment written"') || line.includes('msg="snapshot written"')) {
              writeStartedAt = null;
              wrote = true;
              continue;
            }
            log(`litestream: ${line}`);
            if (/level=(WARN|ERROR)/.test(line)) status.lastError = (/msg=("[^"]*"|\S+)/.exec(line)?.[1] ?? line).replace(/"/g, "").slice(0, 300);
          }
        });
        started.once("exit", (code, signal) => {
          if (child === started) child = null;
          status.running = false;
          if (!stopping) {
            status.lastError ??= `litestream avslutades (${signal ?? `exit ${code}`})`;
            log(`replikering: litestream avslutades (${signal ?? `exit ${code}`}); startas igen om ${pause / 1000} s`);
            restartAt = Date.now() + pause;
            pause = Math.min(pause * 2, 30_000);
          }
        });
      }
      const running = child as ChildProcess | null;
      if (running) {
        const now = Date.now();
        let replicaAt: { index: number; offset: number } | null = null;
        try {
          const m = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })).text());
          replicaAt = m.replica;
          if (m.syncErrors > status.syncErrors) status.lastError ??= "synkfel";
          status.syncErrors = m.syncErrors;
        } catch {
          // Litestream is starting (its port not open yet) or stopping: the lag grows meanwhile.
        }
        const shadow = shadowPosition(file);
        status.position = shadow && replicaAt ? { shadowIndex: shadow.index, shadowSize: shadow.size, replicaIndex: replicaAt.index, replicaOffset: replicaAt.offset } : null;
        const upToDate =
          writeStartedAt === null &&
          (shadow && replicaAt ? caughtUp(shadow, replicaAt) : !wrote && shadow !== null && now - childStartedAt >= settleMs);
        if (upToDate) {
          status.caughtUpAt = now;
          status.lastError = null;
          pause = 1_000;
        }
        if (writeStartedAt !== null && now - writeStartedAt > stallMs) {
          status.lastError = `en skrivning till repliken har inte blivit klar på ${Math.round((now - writeStartedAt) / 1000)} s`;
          log(`replikering: ${status.lastError}; Litestream startas om`);
          writeStartedAt = null;
          running.kill("SIGKILL");
        }
      }
      writeStatus();
      await sleep(1_000);
    }
  } finally {
    const last = child as ChildProcess | null;
    const alive = () => last !== null && last.exitCode === null && last.signalCode === null;
    if (last && alive()) {
      const exited = new Promise((r) => last.once("exit", r));
      last.kill("SIGTERM");
      // A hung Litestream ignores SIGTERM.
      await Promise.race([exited, sleep(10_000)]);
      if (alive()) {
        last.kill("SIGKILL");
        await Promise.race([exited, sleep(2_000)]);
      }
    }
    rmSync(statusFile, { force: true });
    if (!alive()) rmSync(pidFile, { force: true });
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
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
}
