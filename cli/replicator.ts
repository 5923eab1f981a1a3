// The replicator (decision 039): `portal replica run` runs Litestream on the database file
// and keeps it running, and says every second how far the replica is behind, in the
// status file every app server reads (app/features/operations/replication.server.ts).
// `portal serve` starts one as its child when REPLICA_URL is set; several servers on one
// database each start one, and a lock lets only one of them replicate: the others wait,
// and the first of them takes over when the lock's holder dies.
import { createClient, type Client } from "@libsql/client";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReplicaSettings } from "../app/config.server";
import { isDatabaseBusy, openDb } from "../db/client";
import { besideDatabase, litestreamBinary, redactedReplicaUrl, replicaStatusFile, type ReplicatorStatus } from "../app/features/operations/index.server";
import { freePort } from "./free-port";
import { portalNow } from "../db/clock";

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

/**
 * A Litestream a replicator before this one left running: one that hung (it then ignores
 * SIGTERM) and outlived a replicator that was killed. Two would corrupt each other's copy
 * of the WAL, so the new lock holder kills it first; it is known by the process id the last
 * holder wrote and by its command line.
 */
function killLeftover(pidFile: string, log: (line: string) => void) {
  try {
    const [pid, config] = readFileSync(pidFile, "utf8").split("\n");
    const cmdline = readFileSync(`/proc/${Number(pid)}/cmdline`, "utf8");
    // Its own configuration file names it: a reused pid is someone else's process.
    if (config && cmdline.includes("litestream") && cmdline.includes(config)) {
      process.kill(Number(pid), "SIGKILL");
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
  const meta = besideDatabase(file, "litestream");
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
    lock = await takeLock(besideDatabase(file, "replicator.lock"));
    if (lock) break;
    if (!said) log("replikering: en annan process replikerar redan databasen; den här väntar och tar över om den slutar.");
    await sleep(1_000);
  }
  if (!lock) return;
  const pidFile = besideDatabase(file, "litestream.pid");
  const dir = mkdtempSync(join(tmpdir(), "portal-litestream-"));
  const config = join(dir, "litestream.yml");
  killLeftover(pidFile, log);

  const status: ReplicatorStatus = {
    pid: process.pid,
    replica: redactedReplicaUrl(replica.url),
    startedAt: portalNow(),
    writtenAt: portalNow(),
    running: false,
    caughtUpAt: null,
    position: null,
    syncErrors: 0,
    lastError: null,
  };
  const writeStatus = () => {
    status.writtenAt = portalNow();
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
  // hang for good on a write that failed (its writer waits on a pipe nobody reads): a WAL
  // segment that has not been written after the longer of REPLICA_MAX_LAG and 10 s gets
  // Litestream restarted, and it goes on from where the replica stands. A snapshot (the
  // whole database) gets an hour.
  let writing: { kind: "wal" | "snapshot"; since: number } | null = null;
  let heartbeatDone = false;
  let errorAt = 0;
  const stallMs = { wal: Math.max(10_000, replica.maxLagSeconds * 1000), snapshot: 3_600_000 };
  let restartAt = 0;
  let pause = 1_000;
  log(`replikering: ${redactedReplicaUrl(replica.url)} (Litestream, synk var ${replica.syncIntervalSeconds} s)`);
  const onLine = (line: string) => {
    if (line.includes('msg="write wal segment"') || line.includes('msg="write snapshot"')) {
      writing ??= { kind: line.includes("snapshot") ? "snapshot" : "wal", since: portalNow() };
      return;
    }
    if (line.includes('msg="wal segment written"') || line.includes('msg="snapshot written"')) {
      writing = null;
      return;
    }
    log(`litestream: ${line}`);
    if (/level=(WARN|ERROR)/.test(line)) {
      errorAt = portalNow();
      status.lastError = (/msg=("[^"]*"|\S+)/.exec(line)?.[1] ?? line).replace(/"/g, "").slice(0, 300) + (/error="([^"]*)"/.exec(line)?.[1] ? `: ${/error="([^"]*)"/.exec(line)![1].slice(0, 200)}` : "");
    }
  };
  const stopped = (c: ChildProcess, why: string) => {
    if (child === c) child = null;
    status.running = false;
    if (!stopping) {
      status.lastError ??= `litestream avslutades (${why})`;
      log(`replikering: litestream avslutades (${why}); startas igen om ${pause / 1000} s`);
      restartAt = portalNow() + pause;
      pause = Math.min(pause * 2, 30_000);
    }
  };
  try {
    while (!stopping && !orphaned()) {
      if (!child && portalNow() >= restartAt) {
        port = await freePort();
        writeFileSync(config, litestreamConfig(file, replica, port), { mode: 0o600 });
        chmodSync(config, 0o600);
        const started = spawn(litestreamBinary(), ["replicate", "-config", config], { stdio: ["ignore", "ignore", "pipe"], env: process.env });
        child = started;
        status.litestreamPid = started.pid;
        if (started.pid) writeFileSync(pidFile, `${started.pid}\n${config}\n`);
        childStartedAt = portalNow();
        writing = null;
        heartbeatDone = false;
        status.running = true;
        // Line by line: a line split across two reads of the pipe is still one line.
        createInterface({ input: started.stderr! }).on("line", (line) => child === started && onLine(line));
        started.once("error", (e) => stopped(started, e.message));
        started.once("exit", (code, signal) => stopped(started, signal ?? `exit ${code}`));
      }
      const running = child as ChildProcess | null;
      if (running) {
        const now = portalNow();
        let replicaAt: { index: number; offset: number } | null = null;
        let syncFailed = false;
        try {
          const m = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })).text());
          replicaAt = m.replica;
          syncFailed = m.syncErrors > status.syncErrors;
          if (syncFailed) status.lastError ??= "synkfel";
          status.syncErrors = m.syncErrors;
        } catch {
          // Litestream is starting (its port not open yet) or stopping: the lag grows meanwhile.
        }
        // A fresh Litestream has no replica position until it writes, and an idle database
        // gives it nothing to write: one small write of its own sequence table gives it one.
        if (!replicaAt && !heartbeatDone && now - childStartedAt > 2_000 * replica.syncIntervalSeconds) heartbeatDone = await nudge(file);
        const shadow = shadowPosition(file);
        status.position = shadow && replicaAt ? { shadowIndex: shadow.index, shadowSize: shadow.size, replicaIndex: replicaAt.index, replicaOffset: replicaAt.offset } : null;
        // Caught up only on evidence: the replica's position reaches Litestream's copy of the
        // WAL, no write is under way, and Litestream has reported no error or failed sync lately.
        const quiet = !syncFailed && now - errorAt > 2_000 * replica.syncIntervalSeconds + 1_000;
        if (shadow && replicaAt && writing === null && quiet && caughtUp(shadow, replicaAt)) {
          status.caughtUpAt = now;
          status.lastError = null;
          pause = 1_000;
        }
        const w = writing as { kind: "wal" | "snapshot"; since: number } | null;
        if (w && now - w.since > stallMs[w.kind]) {
          status.lastError = `${w.kind === "wal" ? "en skrivning" : "en ögonblicksbild"} till repliken har inte blivit klar på ${Math.round((now - w.since) / 1000)} s`;
          log(`replikering: ${status.lastError}; Litestream startas om`);
          writing = null;
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
    // Stopped on purpose: said so, with the last moment it was caught up, so the servers
    // keep counting the lag from there while another replicator takes over (it polls the
    // lock every second) instead of answering "not running" at once.
    status.running = false;
    status.stoppedAt = portalNow();
    writeStatus();
    if (!alive()) rmSync(pidFile, { force: true });
    rmSync(dir, { recursive: true, force: true });
    lock.close();
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
}

/**
 * Writes Litestream's own sequence row (the write it makes itself at each checkpoint), so
 * that it has WAL to ship and reports the replica's position. False when it could not (the
 * table not there yet, the database busy): tried again on the next round.
 */
async function nudge(file: string): Promise<boolean> {
  const db = openDb(`file:${file}`, undefined, 1_000);
  try {
    await db.$client.execute("INSERT INTO _litestream_seq (id, seq) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET seq = seq + 1");
    return true;
  } catch {
    return false;
  } finally {
    db.$client.close();
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
    const startedAt = portalNow();
    c.once("exit", (code, signal) => {
      child = null;
      if (stopped) return;
      if (portalNow() - startedAt > 60_000) pause = 1_000;
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
