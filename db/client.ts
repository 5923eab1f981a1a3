import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export function databaseUrl(): string {
  return process.env.DATABASE_URL || "file:data/portal.db";
}

export function openDb(url = databaseUrl(), authToken = process.env.DATABASE_AUTH_TOKEN): Db {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    if (path && path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  // busy_timeout 5000 ms; @libsql/client opens file connections with foreign_keys=ON
  // and synchronous=FULL already, and WAL is a property of the file once set.
  const client = createClient({ url, authToken, timeout: 5000 });
  return drizzle(client, { schema }) as Db;
}

export async function prepareDb(db: Db): Promise<void> {
  if (databaseUrl().startsWith("file:") || db.$client.protocol === "file") {
    await db.$client.execute("PRAGMA journal_mode=WAL");
  }
  await migrate(db, { migrationsFolder: resolve(process.cwd(), "db/migrations") });
}

// One client per process, kept across hot reloads.
const holder = globalThis as unknown as { __portalDb?: Db; __portalWriteQueue?: Promise<unknown> };

export function getDb(): Db {
  holder.__portalDb ??= openDb();
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
 * connections. Other processes (a CLI import) are waited for by busy_timeout.
 */
export function writeTransaction<T>(fn: (tx: Tx) => Promise<T>, db: Db = getDb()): Promise<T> {
  const previous = holder.__portalWriteQueue ?? Promise.resolve();
  const run = previous.then(
    () => db.transaction(fn),
    () => db.transaction(fn),
  );
  holder.__portalWriteQueue = run.catch(() => undefined);
  return run;
}

export { schema };
