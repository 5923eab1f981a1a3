// `portal backup`: a consistent copy of the live database while people work. One read
// transaction on the source covers both the copy and the row counts it is checked
// against, so the comparison is exact under any write load, and writers go on (WAL: a
// reader never blocks the one writer). The copy is checked with PRAGMA integrity_check
// before it gets its final name, and an existing file is never overwritten (link()
// fails with EEXIST, atomically).
import { createClient, type Client } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, linkSync, renameSync, rmSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { getDb, isDatabaseBusy, type Db } from "~/db.server";
import { refuse } from "~/lib/refusal";
import { portalNow } from "../../../db/clock";

/** The tables whose row counts a backup and a restore compare (what a retailer or the office would miss). */
export const MAIN_TABLES = [
  "customers",
  "staff_users",
  "deliveries",
  "bundles",
  "returns",
  "label_blocks",
  "holiday_reports",
  "placards",
  "messages",
  "invoices",
  "invoice_lines",
  "guarantees",
] as const;

export type RowCounts = Record<string, number>;
export type BackupResult = { file: string; bytes: number; ms: number; counts: RowCounts };

type Queryable = Pick<Client, "execute">;

/** "ok", or what PRAGMA integrity_check found (one line). */
export async function integrityCheck(client: Queryable): Promise<string> {
  const res = await client.execute("PRAGMA integrity_check");
  return res.rows.map((r) => String(r[0])).join("; ");
}

/** Row counts of MAIN_TABLES (a table that does not exist is left out). */
export async function rowCounts(client: Queryable): Promise<RowCounts> {
  const present = new Set(
    ((await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows).map((r) => String(r[0])),
  );
  const counts: RowCounts = {};
  for (const table of MAIN_TABLES) {
    if (!present.has(table)) continue;
    const res = await client.execute(`SELECT count(*) FROM "${table}"`);
    counts[table] = Number(res.rows[0][0]);
  }
  return counts;
}

export function countsText(counts: RowCounts): string {
  return Object.entries(counts)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
}

function countsDiffer(a: RowCounts, b: RowCounts): string | undefined {
  const tables = new Set([...Object.keys(a), ...Object.keys(b)]);
  const diff = [...tables].filter((t) => a[t] !== b[t]).map((t) => `${t} ${a[t] ?? "–"} ≠ ${b[t] ?? "–"}`);
  return diff.length ? diff.join(", ") : undefined;
}

type SchemaObject = { type: string; name: string; sql: string };

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies the database behind `client` into the new file `tmp` as of one moment, and
 * returns the source's row counts of that same moment. VACUUM INTO cannot run inside a
 * transaction, so counts taken around it never match under a steady write load (a save
 * a second and every backup failed); here the rows are copied by INSERT … SELECT into
 * the attached new file inside the read transaction that also counts. Tables first,
 * then their rows, then indexes and triggers (no trigger fires on copied rows).
 */
async function copyAtOneMoment(url: string, tmp: string): Promise<RowCounts> {
  const src = createClient({ url, timeout: 60_000, concurrency: 1 });
  try {
    const objects = (await src.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")).rows.map(
      (r) => ({ type: String(r.type), name: String(r.name), sql: String(r.sql) }) satisfies SchemaObject,
    );
    const tables = objects.filter((o) => o.type === "table");
    const copy = createClient({ url: `file:${tmp}` });
    try {
      for (const t of tables) await copy.execute(t.sql);
    } finally {
      copy.close();
    }
    // One connection (concurrency 1), so the attachment and the pragmas hold for the
    // transaction. Rows go in any order: the copy checks no foreign keys (the source did).
    await src.execute("PRAGMA foreign_keys = OFF");
    await src.execute({ sql: "ATTACH DATABASE ? AS backup", args: [tmp] });
    await src.execute("PRAGMA backup.journal_mode = OFF");
    await src.execute("PRAGMA backup.synchronous = OFF");
    let counts: RowCounts;
    const tx = await src.transaction("deferred");
    try {
      counts = await rowCounts(tx);
      for (const t of tables) await tx.execute(`INSERT INTO backup.${quoted(t.name)} SELECT * FROM main.${quoted(t.name)}`);
      const hasSequence = (await tx.execute("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'")).rows.length > 0;
      if (hasSequence) {
        await tx.execute("DELETE FROM backup.sqlite_sequence");
        await tx.execute("INSERT INTO backup.sqlite_sequence SELECT * FROM main.sqlite_sequence");
      }
      await tx.commit();
    } finally {
      tx.close();
    }
    await src.execute("DETACH DATABASE backup");
    const rest = createClient({ url: `file:${tmp}` });
    try {
      for (const o of objects) if (o.type !== "table") await rest.execute(o.sql);
    } finally {
      rest.close();
    }
    return counts;
  } finally {
    src.close();
  }
}

export async function backupDatabase(out: string, db: Db = getDb()): Promise<BackupResult> {
  const started = portalNow();
  if (db.$client.protocol !== "file") throw refuse.invalid("backup kopierar bara en lokal databasfil (file:…); för Turso/sqld, använd deras säkerhetskopior.");
  const file = resolve(out);
  if (existsSync(file)) throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
  if (!existsSync(dirname(file))) throw refuse.notFound(`Katalogen ${dirname(file)} finns inte.`);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const main = (await db.$client.execute("PRAGMA database_list")).rows.find((r) => r.name === "main");
    const counts = await copyAtOneMoment(`file:${String(main?.file)}`, tmp);
    const copy = createClient({ url: `file:${tmp}` });
    try {
      const answer = await integrityCheck(copy);
      if (answer !== "ok") throw refuse.invalid(`Kopian klarade inte integrity_check: ${answer}`);
      const differs = countsDiffer(await rowCounts(copy), counts);
      if (differs) throw refuse.invalid(`Kopian har inte databasens rader: ${differs}`);
    } finally {
      copy.close();
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
      throw e;
    }
    return { file, bytes: statSync(file).size, ms: portalNow() - started, counts };
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      try {
        unlinkSync(tmp + suffix);
      } catch {
        // not there
      }
    }
  }
}

export type RestoreResult = {
  file: string;
  from: string;
  counts: RowCounts;
  /** What the database was before: missing, empty, damaged, or live (only with force). */
  replaced: "missing" | "empty" | "damaged" | "live";
  /** Where the database that was replaced now lies (nothing is deleted). */
  keptAs?: string;
};

/** A database file's row counts and tables, or what is wrong with it (the shape of every check). */
export async function inspectDatabase(url: string): Promise<{ counts: RowCounts; tables: Set<string> } | { problem: string }> {
  const client = createClient({ url });
  try {
    const answer = await integrityCheck(client);
    if (answer !== "ok") return { problem: `integrity_check: ${answer}` };
    const tables = new Set(
      ((await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows).map((r) => String(r[0])),
    );
    return { counts: await rowCounts(client), tables };
  } catch (e) {
    // A database another process holds is not damaged: nothing is replaced.
    if (isDatabaseBusy(e)) throw refuse.busy(`${url.slice("file:".length)} är låst av en annan process; inget är ändrat. Försök igen när den är klar.`);
    return { problem: (e as Error).message.split("\n")[0] };
  } finally {
    client.close();
  }
}

// The probe runs in a process of its own: a closed connection can keep its lock until it
// is collected, and this process goes on to open the same file.
const OPEN_PROBE = `
const { createClient } = require(process.argv[1]);
(async () => {
  const c = createClient({ url: process.argv[2], timeout: 1000, concurrency: 1 });
  try {
    await c.execute("PRAGMA locking_mode = EXCLUSIVE");
    await c.execute("SELECT count(*) FROM sqlite_master");
    process.exit(0);
  } catch (e) {
    process.exit(/SQLITE_BUSY|database is locked/i.test(String(e && e.message)) ? 3 : 0);
  }
})();`;

/**
 * Refuses when another process has the database open: a server still running would go
 * on writing into the file a restore renames, and those saves would be lost. The servers
 * run the database in WAL mode, where every open connection holds a shared lock on the
 * file; a read in EXCLUSIVE locking mode needs that lock alone, so it fails while any
 * other connection is open, and changes nothing. A database that cannot be read is left
 * to the checks that follow.
 */
export function refuseWhileOpen(file: string): void {
  if (!existsSync(file)) return;
  const client = createRequire(import.meta.url).resolve("@libsql/client");
  const probe = spawnSync(process.execPath, ["-e", OPEN_PROBE, client, `file:${file}`], { stdio: "ignore", timeout: 30_000 });
  if (probe.status === 3) {
    throw refuse.conflict(`Databasen ${file} är öppen i en annan process (en server som körs?). Stoppa alla servrar och jobb på den och kör restore igen; inget är ändrat.`);
  }
}

/**
 * `portal restore FILE`: puts a verified backup in place of the database at `url` (a
 * local file). The backup must pass integrity_check and be a portal database; the
 * database it replaces must be missing, empty (no customers, no returns) or damaged,
 * unless `force`. The copy is written beside the target and checked (integrity_check, the
 * backup's row counts) before it takes the name; the database it replaces is kept,
 * renamed, never deleted. The servers on that database must be stopped.
 */
export async function restoreDatabase(backup: string, url: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const from = resolve(backup);
  if (!url.startsWith("file:")) throw refuse.invalid("restore lägger bara tillbaka en lokal databasfil (file:…); för Turso/sqld, använd deras återställning.");
  const file = resolve(url.slice("file:".length).split("?")[0]);
  if (!existsSync(from) || !statSync(from).isFile()) throw refuse.notFound(`${backup} finns inte.`);
  if (from === file) throw refuse.invalid(`${backup} är själva databasen; ange en säkerhetskopia.`);
  // First, before this process opens the database (a closed connection may hold its lock until collected).
  refuseWhileOpen(file);
  const source = await inspectDatabase(`file:${from}`);
  if ("problem" in source) throw refuse.invalid(`${backup} klarade inte kontrollen och läggs inte tillbaka (${source.problem}).`);
  if (!source.tables.has("__drizzle_migrations") || !source.tables.has("customers")) {
    throw refuse.invalid(`${backup} är ingen säkerhetskopia av Returportalen (tabellerna saknas).`);
  }

  let replaced: RestoreResult["replaced"] = "missing";
  if (existsSync(file) && statSync(file).size > 0) {
    const target = await inspectDatabase(`file:${file}`);
    if ("problem" in target) replaced = "damaged";
    else if ((target.counts.customers ?? 0) + (target.counts.returns ?? 0) > 0) {
      if (!options.force) {
        throw refuse.conflict(
          `Databasen ${file} har data (${target.counts.customers ?? 0} kunder, ${target.counts.returns ?? 0} returer); restore skriver bara över den med --force.`,
        );
      }
      replaced = "live";
    } else replaced = "empty";
  } else if (existsSync(file)) replaced = "empty";
  if (!existsSync(dirname(file))) throw refuse.notFound(`Katalogen ${dirname(file)} finns inte.`);

  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.restore.tmp`);
  const clean = () => {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(tmp + suffix, { force: true });
  };
  try {
    // A fresh, compact copy of the backup (VACUUM INTO), checked before it takes the name.
    const src = createClient({ url: `file:${from}` });
    try {
      await src.execute({ sql: "VACUUM INTO ?", args: [tmp] });
    } finally {
      src.close();
    }
    const copy = await inspectDatabase(`file:${tmp}`);
    if ("problem" in copy) throw refuse.invalid(`Kopian av ${backup} klarade inte integrity_check (${copy.problem}); databasen är orörd.`);
    const differs = countsDiffer(source.counts, copy.counts);
    if (differs) throw refuse.invalid(`Kopian av ${backup} har inte säkerhetskopians rader (${differs}); databasen är orörd.`);

    let keptAs: string | undefined;
    if (replaced !== "missing") {
      keptAs = `${file}.before-restore-${new Date(portalNow()).toISOString().replace(/[:.]/g, "-")}`;
      renameSync(file, keptAs);
      // The log belongs to the file it came from: it moves with it, or it would be applied to the restored one.
      if (existsSync(file + "-wal")) renameSync(file + "-wal", keptAs + "-wal");
    }
    for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    renameSync(tmp, file);
    return { file, from, counts: copy.counts, replaced, keptAs };
  } finally {
    clean();
  }
}
