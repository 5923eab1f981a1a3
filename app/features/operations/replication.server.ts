// Continuous replication of the database file (decision 039): Litestream ships every
// change of the WAL to the replica (REPLICA_URL) within a second or so, and restores the
// database from it, as it was at the end or at a moment in the past. The replicator
// (cli/replicator.ts) runs Litestream and writes its state beside the database, in
// `.<file>-replica.json`; every app server reads that file for /readyz and the admin
// start page, and `portal replica status` prints it.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { ReplicaSettings } from "~/config.server";
import { databaseFile } from "~/db.server";
import { stockholmMoment, stockholmTime } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { inspectDatabase, refuseWhileOpen, restoreDatabase, type RestoreResult, type RowCounts } from "./backup.server";
import { clockOffset, portalNow } from "../../../db/clock";

/** The Litestream binary that `npm ci` installed (@flydotio/litestream, one package per platform). */
export function litestreamBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = `@flydotio/litestream-${process.platform}-${process.arch}/package.json`;
  try {
    return join(dirname(require.resolve(pkg)), "litestream");
  } catch {
    throw refuse.notFound(`Litestream finns inte för ${process.platform}-${process.arch} (paketet ${pkg.replace("/package.json", "")}); replikering går bara där.`);
  }
}

/** A replica URL as it may be printed: no user name or password. */
export function redactedReplicaUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** A file of the database's own beside it: `.<name>-<what>` (Litestream's copy of the WAL is `.<name>-litestream`). */
export function besideDatabase(file: string, what: string): string {
  return join(dirname(file), `.${basename(file)}-${what}`);
}

/** Where the replicator says how it is doing: beside the database, one file per database. */
export function replicaStatusFile(file: string): string {
  return besideDatabase(file, "replica.json");
}

/** What the replicator writes every second (cli/replicator.ts). Times are epoch ms. */
export type ReplicatorStatus = {
  pid: number;
  replica: string;
  startedAt: number;
  writtenAt: number;
  /** Litestream is running (it is restarted when it stops), and its process id. */
  running: boolean;
  /** When the replicator was stopped on purpose (a server stopping); another may take over. */
  stoppedAt?: number;
  litestreamPid?: number;
  /** The last moment the replica held everything Litestream had read from the WAL; null: not yet. */
  caughtUpAt: number | null;
  /** Where the local WAL copy (shadow) and the replica stand: index and byte offset. */
  position: { shadowIndex: number; shadowSize: number; replicaIndex: number; replicaOffset: number } | null;
  syncErrors: number;
  lastError: string | null;
};

export type ReplicationState =
  | { state: "unconfigured" }
  | { state: "down"; reason: string }
  | { state: "ok" | "behind"; lagSeconds: number; maxLagSeconds: number; status: ReplicatorStatus };

/** How long a status file may go unwritten before its replicator counts as gone. */
const STALE_AFTER_MS = 10_000;

/** The replication of the database at `url` as its status file tells it, at `now`. */
export function replicationState(replica: ReplicaSettings | null, url: string, now = portalNow()): ReplicationState {
  if (!replica) return { state: "unconfigured" };
  const file = databaseFile(url);
  if (!file) return { state: "down", reason: "DATABASE_URL is not a local file" };
  let status: ReplicatorStatus;
  try {
    status = JSON.parse(readFileSync(replicaStatusFile(file), "utf8")) as ReplicatorStatus;
  } catch {
    return { state: "down", reason: "replication not running" };
  }
  if (now - status.writtenAt > STALE_AFTER_MS) return { state: "down", reason: `replicator silent for ${Math.round((now - status.writtenAt) / 1000)} s` };
  // Stopped on purpose a moment ago: another replicator is taking over, and the lag counts on.
  const handingOver = status.stoppedAt !== undefined && now - status.stoppedAt <= STALE_AFTER_MS;
  if (!status.running && !handingOver) {
    return { state: "down", reason: status.stoppedAt ? "replicator stopped" : `litestream not running${status.lastError ? ` (${status.lastError})` : ""}` };
  }
  const lagSeconds = Math.max(0, (now - (status.caughtUpAt ?? status.startedAt)) / 1000);
  return { state: lagSeconds > replica.maxLagSeconds ? "behind" : "ok", lagSeconds, maxLagSeconds: replica.maxLagSeconds, status };
}

/** Why /readyz says not ready because of replication, or undefined. */
export function replicationProblem(state: ReplicationState): string | undefined {
  if (state.state === "down") return `replication: ${state.reason}`;
  if (state.state === "behind") return `replica ${Math.round(state.lagSeconds)} s behind (limit ${state.maxLagSeconds} s)`;
  return undefined;
}

const seconds = (n: number) => `${n.toFixed(n < 10 ? 1 : 0).replace(".", ",")} s`;

/**
 * The admin start page's warning in production: the database is not replicated, or its
 * replica is behind; null when all is well (or outside production).
 */
export function replicationWarning(production: boolean, state: ReplicationState): string | null {
  if (!production) return null;
  if (state.state === "unconfigured") {
    return "Databasen replikeras inte (REPLICA_URL är inte satt): dör disken förloras allt som sparats sedan den senaste säkerhetskopian.";
  }
  if (state.state === "down") return `Replikeringen av databasen körs inte (${state.reason}): det som sparas nu finns bara på serverns disk.`;
  if (state.state === "behind") {
    return `Replikeringen ligger ${seconds(state.lagSeconds)} efter (gränsen är ${state.maxLagSeconds} s): det som sparats sedan dess finns bara på serverns disk.`;
  }
  return null;
}

/** `portal replica status` as lines. */
export function replicationStatusLines(replica: ReplicaSettings | null, state: ReplicationState): string[] {
  if (!replica || state.state === "unconfigured") return ["replikering: av (REPLICA_URL är inte satt)"];
  const lines = [`replikering: ${redactedReplicaUrl(replica.url)}`];
  if (state.state === "down") return [...lines, `läge: körs inte (${state.reason})`];
  const s = state.status;
  lines.push(
    `läge: ${state.state === "ok" ? "ikapp" : "efter"}, eftersläpning ${seconds(state.lagSeconds)} (gräns ${state.maxLagSeconds} s)`,
    `senast ikapp: ${s.caughtUpAt ? stockholmTime(s.caughtUpAt) : "ännu inte"}`,
    `replikator: pid ${s.pid}${s.litestreamPid ? ` (litestream ${s.litestreamPid})` : ""}, i gång sedan ${stockholmTime(s.startedAt)}`,
  );
  if (s.position) lines.push(`position: wal ${s.position.shadowIndex}/${s.position.shadowSize} lokalt, ${s.position.replicaIndex}/${s.position.replicaOffset} i repliken`);
  if (s.syncErrors > 0 || s.lastError) lines.push(`fel: ${s.syncErrors} synkfel${s.lastError ? `, senast: ${s.lastError}` : ""}`);
  return lines;
}

/** The replica's snapshots (`litestream snapshots`): when each was taken, oldest first. */
export function replicaSnapshots(replica: ReplicaSettings): { generation: string; createdAt: number }[] {
  const r = spawnSync(litestreamBinary(), ["snapshots", replica.url], { encoding: "utf8", env: process.env, timeout: 60_000 });
  if (r.status !== 0) {
    const said = `${r.stderr ?? ""}${r.error ? r.error.message : ""}`.trim().split("\n").pop();
    throw refuse.invalid(`Repliken ${redactedReplicaUrl(replica.url)} gick inte att läsa: ${said || `exit ${r.status ?? r.signal}`}.`);
  }
  return r.stdout
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 5 && !Number.isNaN(Date.parse(cols[4])))
    .map((cols) => ({ generation: cols[1], createdAt: fromMachineTime(Date.parse(cols[4])) }))
    .sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * Before a server opens the database with REPLICA_URL set: Litestream is there for this
 * platform, and a missing (or empty) database is not started afresh over a replica that
 * holds a copy. An empty database would start a new generation, the newest, and a later
 * `restore --from-replica` would bring back that empty one (Litestream's own rule:
 * restore if the database is missing and the replica has one).
 */
export function assertReplicationCanStart(replica: ReplicaSettings, url: string): void {
  litestreamBinary();
  const file = databaseFile(url);
  if (!file || (existsSync(file) && statSync(file).size > 0)) return;
  const snapshots = replicaSnapshots(replica);
  const last = snapshots.at(-1);
  if (last) {
    throw refuse.conflict(
      `Databasen ${file} finns inte, men repliken ${redactedReplicaUrl(replica.url)} har en kopia (senast ${stockholmTime(last.createdAt)}): återställ den först med portal restore --from-replica. Ska databasen börja om tom, ange en ny REPLICA_URL.`,
    );
  }
}

// Litestream stamps its snapshots and WAL by the machine's clock; the portal says and takes
// times by its own (db/clock.ts), which tests shift.
const fromMachineTime = (ms: number) => ms + clockOffset();
const toMachineTime = (ms: number) => ms - clockOffset();

/** `--at 'YYYY-MM-DD HH:MM[:SS]'`, Stockholm time, as epoch ms; refused when malformed or ahead of `now`. */
export function parseRestorePoint(value: string, now = portalNow()): number {
  const m = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(value.trim());
  const day = m ? new Date(`${m[1]}T00:00:00Z`) : null;
  if (!m || !day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== m[1]) {
    throw refuse.invalid(`--at ${JSON.stringify(value)} går inte att tolka: ange datum och tid i svensk tid, t.ex. --at '2026-11-27 07:45'.`);
  }
  const at = stockholmMoment(m[1], `${m[2]}:${m[3]}`) + Number(m[4] ?? 0) * 1000;
  const wall = `${m[1]} ${m[2]}:${m[3]}:${m[4] ?? "00"}`;
  // The hour the clock skips in spring does not exist; the hour it repeats in autumn exists twice.
  if (stockholmTime(at) !== wall) throw refuse.invalid(`--at ${value.trim()} finns inte i svensk tid (klockan ställdes fram); ange en tid före 02:00 eller från 03:00.`);
  if (stockholmTime(at - 3_600_000) === wall || stockholmTime(at + 3_600_000) === wall) {
    throw refuse.invalid(`--at ${value.trim()} finns två gånger i svensk tid (klockan ställdes tillbaka); ange en tid före 02:00 eller från 03:00.`);
  }
  if (at > now) throw refuse.invalid(`--at ${value.trim()} ligger i framtiden; utan --at återställs det senaste.`);
  return at;
}

/** Runs `litestream restore` of `replica` into `out` (as it was at `at`, or the latest). */
function litestreamRestore(replica: ReplicaSettings, out: string, at: number | undefined): void {
  const args = ["restore", "-o", out, ...(at === undefined ? [] : ["-timestamp", new Date(Math.floor(toMachineTime(at) / 1000) * 1000).toISOString().replace(".000Z", "Z")]), replica.url];
  const r = spawnSync(litestreamBinary(), args, { encoding: "utf8", env: process.env, timeout: 60 * 60_000 });
  if (r.status === 0 && existsSync(out)) return;
  const said = `${r.stderr ?? ""}${r.error ? String(r.error.message) : ""}`.trim().split("\n").pop() ?? "";
  if (/no matching backups|no snapshots available|no generation/i.test(said)) {
    throw refuse.notFound(
      at === undefined
        ? `Repliken ${redactedReplicaUrl(replica.url)} har ingen kopia av databasen.`
        : `Repliken ${redactedReplicaUrl(replica.url)} har ingen kopia från ${stockholmTime(at)} eller tidigare (den går ${Math.round(replica.retentionSeconds / 3600)} h tillbaka).`,
    );
  }
  throw refuse.invalid(`Litestream kunde inte återställa från ${redactedReplicaUrl(replica.url)}: ${said || `exit ${r.status ?? r.signal}`}.`);
}

export type ReplicaCheck = { counts: RowCounts; bytes: number; at?: number };

/**
 * `portal restore --from-replica --check`: restores into a scratch directory of its own
 * beside the database, runs the restore's checks on it (integrity_check, a portal database)
 * and deletes it. The live database is not touched, nor even opened.
 */
export async function checkReplica(replica: ReplicaSettings, url: string, options: { at?: number } = {}): Promise<ReplicaCheck> {
  // Beside the database, on its disk (the temporary directory may be memory): a national
  // database is hundreds of megabytes.
  const file = databaseFile(url);
  const dir = mkdtempSync(file ? besideDatabase(file, "replica-check-") : join(tmpdir(), "portal-replica-check-"));
  const out = join(dir, "portal.db");
  try {
    litestreamRestore(replica, out, options.at);
    const copy = await inspectDatabase(`file:${out}`);
    if ("problem" in copy) throw refuse.invalid(`Kopian från repliken klarade inte kontrollen (${copy.problem}).`);
    if (!copy.tables.has("__drizzle_migrations") || !copy.tables.has("customers")) throw refuse.invalid("Kopian från repliken är ingen databas för Returportalen (tabellerna saknas).");
    return { counts: copy.counts, bytes: statSync(out).size, at: options.at };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `portal restore --from-replica [--at]`: Litestream restores the replica into a scratch
 * file beside the database, and then today's restore puts it in place with all its
 * refusals and checks (another process has the database open, it has data without
 * `force`, integrity_check and row counts; the replaced file is kept).
 */
export async function restoreFromReplica(replica: ReplicaSettings, url: string, options: { at?: number; force?: boolean } = {}): Promise<RestoreResult> {
  const file = databaseFile(url);
  if (!file) throw refuse.invalid("restore --from-replica lägger bara tillbaka en lokal databasfil (DATABASE_URL=file:…).");
  if (!existsSync(dirname(file))) throw refuse.notFound(`Katalogen ${dirname(file)} finns inte.`);
  // Before Litestream spends minutes on a copy that could not be put in place.
  refuseWhileOpen(file);
  const scratch = join(dirname(file), `.${basename(file)}.${process.pid}.from-replica.tmp`);
  const clean = () => {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(scratch + suffix, { force: true });
  };
  clean();
  try {
    litestreamRestore(replica, scratch, options.at);
    const restored = await restoreDatabase(scratch, url, { force: options.force });
    return { ...restored, from: redactedReplicaUrl(replica.url) + (options.at === undefined ? "" : ` (${stockholmTime(options.at)})`) };
  } finally {
    clean();
  }
}
