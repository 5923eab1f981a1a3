import { createClient, type Client, type Config } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { databaseUrlProblem, writeWaitMsOf } from "./database-url";
import { settingProblem } from "./setting-problem";
import { portalNow } from "./clock";
export { isSettingProblem } from "./setting-problem";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export function databaseUrl(): string {
  return process.env.DATABASE_URL || "file:data/portal.db";
}

/**
 * A client of its own. `busyTimeoutMs` is how long one native call may wait for a lock;
 * the app's client (getDb) keeps it short, see BUSY_TIMEOUT_MS. Tools and tests that
 * write directly, outside writeTransaction, keep SQLite's own 5 s wait.
 */
export function openDb(url = databaseUrl(), authToken = process.env.DATABASE_AUTH_TOKEN, busyTimeoutMs = 5_000): Db {
  const problem = databaseUrlProblem(url);
  if (problem) throw settingProblem(problem);
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    if (path && path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  // @libsql/client opens file connections with foreign_keys=ON and synchronous=FULL
  // already, and WAL is a property of the file once set. `walAutocheckpoint` is this
  // project's patch of the client: set on every connection it opens.
  const syncUrl = embeddedReplicaOf(url);
  const config: Config & { walAutocheckpoint?: number } = {
    url,
    authToken,
    timeout: busyTimeoutMs,
    ...(syncUrl ? { syncUrl, syncInterval: 1 } : {}),
    ...(checkpointsLeftToReplicator() ? { walAutocheckpoint: REPLICATED_WAL_AUTOCHECKPOINT } : {}),
  };
  const client = createClient(config);
  return drizzle(client, { schema }) as Db;
}

/**
 * With REPLICA_URL set, Litestream replicates the database file and must be the one that
 * checkpoints it (decision 039): a checkpoint of ours between two of its reads of the WAL
 * would cost it a new generation, a full snapshot. Litestream checkpoints from 1,000 pages
 * and forces one at 10,000, so the app's connections checkpoint only from 20,000 pages
 * (80 MB): never while Litestream works, and a WAL that Litestream has left alone (it is
 * down, or missing) still stops growing.
 */
export const REPLICATED_WAL_AUTOCHECKPOINT = 20_000;

/** REPLICA_URL is set: Litestream replicates this database (decision 039). */
export function checkpointsLeftToReplicator(): boolean {
  return Boolean(process.env.REPLICA_URL?.trim());
}

/**
 * DATABASE_SYNC_URL (decision 025): DATABASE_URL is then a local embedded replica of that
 * remote primary. Reads are answered from the local file and writes go to the primary;
 * this client reads its own writes at once (the client's readYourWrites), and other
 * servers' writes after the next sync, within a second.
 */
function embeddedReplicaOf(url: string): string | undefined {
  const syncUrl = process.env.DATABASE_SYNC_URL?.trim();
  return syncUrl && url.startsWith("file:") ? syncUrl : undefined;
}

/**
 * How long one native call of the app's client may wait for a lock. SQLite's busy handler
 * sleeps inside the native call, which stops the whole event loop, so it is kept short and
 * writeTransaction waits for a lock held elsewhere instead, asynchronously.
 */
export const BUSY_TIMEOUT_MS = 20;

/**
 * How long a write waits for the database when another process holds it (a backup, an
 * import, another app server), counted from the call, before the busy refusal.
 */
export function writeWaitMs(): number {
  return writeWaitMsOf(process.env.PORTAL_WRITE_WAIT_MS);
}

/**
 * The database stayed locked by another connection for the whole wait; nothing was
 * written. The app turns it into its "busy" refusal (app/db.server.ts): 503 with Retry-After.
 */
export function databaseBusy(): Error {
  return Object.assign(new Error("database is locked: another connection held it for the whole write wait"), { code: "SQLITE_BUSY_WAIT" });
}

/**
 * What went wrong, in one line, for a log or an operator: a failed query says its driver's
 * reason, not its SQL and parameters (hashes among them), which drizzle puts in its message.
 */
export function errorReason(error: unknown): string {
  const e = error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : error;
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/**
 * The one place that says whether an error means "the database is busy, try again": SQLite's
 * SQLITE_BUSY and its extended codes, from the local driver or a remote libSQL server
 * (which answers with the same code names, and LibsqlError's `rawCode`), however the driver
 * or drizzle wrapped it, and this module's own busy error. The web makes it the busy
 * refusal (app/db.server.ts); nothing else reads the message text.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, rawCode } = e as { code?: unknown; rawCode?: unknown };
    if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return true;
    // The primary result code is the low byte: 5 (BUSY), 261 (BUSY_RECOVERY), 517 (BUSY_SNAPSHOT), 773 (BUSY_TIMEOUT).
    if (typeof rawCode === "number" && (rawCode & 0xff) === 5) return true;
    if (/database is locked/i.test(e.message)) return true;
  }
  return false;
}

function lockedJustNow(): boolean {
  return holder.__portalLastBusyAt !== undefined && portalNow() - holder.__portalLastBusyAt < 500;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY before `started()` is true, or
 * the deadline passes. Between tries the event loop is free (reads keep answering).
 */
async function untilNotBusy<T>(attempt: () => Promise<T>, started: () => boolean, deadline: number): Promise<T> {
  for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDatabaseBusy(error)) throw error;
      // Locked inside a transaction already begun (BEGIN IMMEDIATE makes this rare): it was
      // rolled back, so nothing was written; answered as busy, not retried.
      if (started()) throw Object.assign(databaseBusy(), { cause: error });
      holder.__portalLastBusyAt = portalNow();
      const left = deadline - portalNow();
      if (left <= 0) throw databaseBusy();
      await sleep(Math.min(pause, left));
    }
  }
}

export async function prepareDb(db: Db, migrationsFolder = resolve(process.cwd(), "db/migrations")): Promise<void> {
  // Another process may be writing (several app servers starting): wait for it, longer than a save would.
  const deadline = portalNow() + Math.max(writeWaitMs(), 30_000);
  // An embedded replica's journal is the primary's business.
  if ((databaseUrl().startsWith("file:") || db.$client.protocol === "file") && !embeddedReplicaOf(databaseUrl())) {
    await untilNotBusy(() => db.$client.execute("PRAGMA journal_mode=WAL"), () => false, deadline);
  }
  await untilNotBusy(() => migrateOnce(db, migrationsFolder), () => false, deadline);
}

/** How many of the migrations in `folder` the database has not applied. */
async function pendingMigrations(db: Db, folder: string): Promise<number> {
  const applied = await db.$client.execute("SELECT max(created_at) FROM __drizzle_migrations").catch(() => null);
  const lastAt = applied?.rows.length ? Number(applied.rows[0][0] ?? -1) : -1;
  return readMigrationFiles({ migrationsFolder: folder }).filter((m) => m.folderMillis > lastAt).length;
}

/**
 * drizzle's migrator, which applies every pending migration in one batch with foreign keys
 * off (drizzle-kit's table rebuilds need that, or a rebuilt parent would cascade-delete its
 * children). It reads which are pending before its batch, so servers starting together on
 * one new database all find every migration pending: the first batch applies them, the
 * others wait for its lock and then fail ("table already exists") with nothing written.
 * Such a server reads again: when another has applied everything, it is done; when another
 * is still under way, it tries again.
 */
async function migrateOnce(db: Db, folder: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrate(db, { migrationsFolder: folder });
      return;
    } catch (error) {
      if (isDatabaseBusy(error)) throw error;
      const left = await pendingMigrations(db, folder);
      if (left === 0) return;
      if (attempt >= 3) throw error;
    }
  }
}

// One client per process, kept across hot reloads.
const holder = globalThis as unknown as {
  __portalDb?: Db;
  __portalWriteQueue?: Promise<unknown>;
  __portalWritesPending?: number;
  /** When a write last found the database locked by another connection. */
  __portalLastBusyAt?: number;
};

export function getDb(): Db {
  holder.__portalDb ??= openDb(databaseUrl(), process.env.DATABASE_AUTH_TOKEN, BUSY_TIMEOUT_MS);
  return holder.__portalDb;
}

/**
 * A query built once per database client and then run with placeholders
 * (`sql.placeholder`). Building a drizzle query costs about as much as SQLite
 * running a small one, so the reads every retailer page makes are prepared
 * (bench/RESULTS.md, B1). Kept per client: tests and the CLI open other databases.
 */
export function preparedQuery<T>(build: (db: Db) => T): (db?: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db = getDb()) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

export function closeDb(): void {
  holder.__portalDb?.$client.close();
  holder.__portalDb = undefined;
}

/**
 * Runs `fn` in one write transaction (BEGIN IMMEDIATE). Writers in this process
 * queue here rather than in SQLite's busy handler: SQLite has one writer anyway,
 * and the client's connection pool refuses more open transactions than it has
 * connections. A lock held by another process (a CLI import, a backup, another app
 * server) is waited for here, asynchronously, at most `waitMs` from the call, queue
 * included; then the busy error (databaseBusy), with nothing written (the app's own
 * writeTransaction, app/db.server.ts, makes it the "busy" refusal: 503 on the web).
 */
export function writeTransaction<T>(fn: (tx: Tx) => Promise<T>, db: Db = getDb(), waitMs = writeWaitMs()): Promise<T> {
  const deadline = portalNow() + waitMs;
  const go = () => {
    // Out of time already, and the writer before found the lock held just now: answer
    // at once rather than block the event loop with one more try per queued write.
    if (portalNow() >= deadline && lockedJustNow()) return Promise.reject(databaseBusy());
    let started = false;
    return untilNotBusy(
      () =>
        db.transaction((tx) => {
          started = true;
          return fn(tx);
        }),
      () => started,
      deadline,
    );
  };
  const previous = holder.__portalWriteQueue ?? Promise.resolve();
  holder.__portalWritesPending = (holder.__portalWritesPending ?? 0) + 1;
  const run = previous.then(go, go).finally(() => {
    holder.__portalWritesPending! -= 1;
  });
  holder.__portalWriteQueue = run.catch(() => undefined);
  return run;
}

/**
 * A write that may be skipped (a session's last-seen time): runs only when no other
 * write is queued or waiting and the database is free right now; otherwise, or if it
 * turns out locked, resolves to undefined without waiting.
 */
export async function writeIfFree<T>(fn: (tx: Tx) => Promise<T>, db: Db = getDb()): Promise<T | undefined> {
  if ((holder.__portalWritesPending ?? 0) > 0 || lockedJustNow()) return undefined;
  try {
    return await writeTransaction(fn, db, 0);
  } catch (error) {
    if (isDatabaseBusy(error)) return undefined;
    throw error;
  }
}

export { schema };
