// Whether the database can take a save: checked once when the server starts (a server on
// a database it cannot write would answer every save with an error) and by `/readyz`
// for a load balancer (database writable, migrations current).
import { createClient } from "@libsql/client";
import { accessSync, constants, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { config, type ReplicaSettings } from "~/config.server";
import { databaseFile, databaseUrl, errorReason, getDb, isDatabaseBusy, type Db } from "~/db.server";
import { refuse } from "~/lib/refusal";
import { replicationProblem, replicationState } from "./replication.server";

/**
 * Refuses unless a write transaction can be started and written in on `url` (rolled back,
 * nothing stays). A connection of its own, so the app's client and its statements are
 * untouched. A database locked by another writer counts as writable.
 */
export async function assertWritable(url: string, authToken?: string): Promise<void> {
  const client = createClient({ url, authToken, timeout: 2_000 });
  try {
    const tx = await client.transaction("write");
    try {
      await tx.execute("CREATE TABLE __portal_write_probe (x)");
    } finally {
      await tx.rollback();
    }
  } catch (e) {
    if (isDatabaseBusy(e)) return;
    throw refuse.invalid(`Databasen ${databaseFile(url) ?? url} går inte att skriva i (${errorReason(e)}); servern startar inte.`);
  } finally {
    client.close();
  }
}

let journal: { count: number; last: number } | undefined;

/** The migrations this code expects (db/migrations/meta/_journal.json). */
function expectedMigrations(): { count: number; last: number } {
  if (!journal) {
    const file = resolve(process.cwd(), "db/migrations/meta/_journal.json");
    const entries = (JSON.parse(readFileSync(file, "utf8")) as { entries: { when: number }[] }).entries;
    journal = { count: entries.length, last: Math.max(...entries.map((e) => e.when)) };
  }
  return journal;
}

export type Readiness = { ready: true; note?: string } | { ready: false; reason: string };

/**
 * Ready: the database answers, its migrations are the ones this code expects, (a local
 * file) the file and its folder can be written, and (with REPLICA_URL) the replica is no
 * further behind than REPLICA_MAX_LAG (decision 039). Cheap: one small query, two
 * access() calls and one small file read, no write and no lock.
 */
export async function readiness(db: Db = getDb(), url = databaseUrl(), replica: ReplicaSettings | null = config.replica): Promise<Readiness> {
  try {
    const res = await db.$client.execute("SELECT count(*) AS n, max(created_at) AS last FROM __drizzle_migrations");
    const row = res.rows[0] as unknown as { n: number; last: number | null };
    const want = expectedMigrations();
    if (Number(row.n) < want.count || Number(row.last ?? 0) < want.last) {
      return { ready: false, reason: `migrations pending (${Number(row.n)} of ${want.count} applied)` };
    }
  } catch (e) {
    return { ready: false, reason: `database: ${errorReason(e)}` };
  }
  const file = databaseFile(url);
  if (file) {
    for (const path of [file, dirname(file)]) {
      try {
        accessSync(path, constants.W_OK);
      } catch (e) {
        return { ready: false, reason: `database not writable: ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})` };
      }
    }
  }
  const replication = replicationState(replica, url);
  const lagging = replicationProblem(replication);
  if (lagging) return { ready: false, reason: lagging };
  return replication.state === "ok" ? { ready: true, note: `replica ${replication.lagSeconds.toFixed(1)} s behind` } : { ready: true };
}
