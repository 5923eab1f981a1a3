// `portal backup`: a consistent copy of the live database. VACUUM INTO writes a
// compacted snapshot while the app keeps running (readers and the one writer are
// not blocked for longer than the copy's read transaction); the copy is checked
// with PRAGMA integrity_check before it gets its final name, and an existing file
// is never overwritten (link() fails with EEXIST, atomically).
import { createClient, type Client } from "@libsql/client";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, renameSync, rmSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { getDb, type Db } from "~/db.server";
import { refuse } from "~/lib/refusal";

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

export async function backupDatabase(out: string, db: Db = getDb()): Promise<BackupResult> {
  const started = Date.now();
  if (db.$client.protocol !== "file") throw refuse.invalid("backup kopierar bara en lokal databasfil (file:…); för Turso/sqld, använd deras säkerhetskopior.");
  const file = resolve(out);
  if (existsSync(file)) throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
  if (!existsSync(dirname(file))) throw refuse.notFound(`Katalogen ${dirname(file)} finns inte.`);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    // The copy is a snapshot of one moment; the source is counted before and after it.
    // Unless a save came in between (then the copy is taken again, up to three times),
    // the copy must have exactly the source's rows.
    let counts: RowCounts | undefined;
    for (let attempt = 1; !counts; attempt++) {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(tmp + suffix, { force: true });
      const before = await rowCounts(db.$client);
      await db.$client.execute({ sql: "VACUUM INTO ?", args: [tmp] });
      const after = await rowCounts(db.$client);
      const copy = createClient({ url: `file:${tmp}` });
      try {
        const answer = await integrityCheck(copy);
        if (answer !== "ok") throw refuse.invalid(`Kopian klarade inte integrity_check: ${answer}`);
        const copied = await rowCounts(copy);
        const moved = countsDiffer(before, after);
        const differs = countsDiffer(copied, after);
        if (!moved && differs) throw refuse.invalid(`Kopian har inte databasens rader: ${differs}`);
        if (!moved) counts = copied;
        else if (attempt >= 3) throw refuse.busy(`Databasen ändrades under varje kopiering (${moved}); försök igen när det är lugnare.`);
      } finally {
        copy.close();
      }
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
      throw e;
    }
    return { file, bytes: statSync(file).size, ms: Date.now() - started, counts };
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

async function inspect(url: string): Promise<{ ok: true; counts: RowCounts; tables: Set<string> } | { ok: false; problem: string }> {
  const client = createClient({ url });
  try {
    const answer = await integrityCheck(client);
    if (answer !== "ok") return { ok: false, problem: `integrity_check: ${answer}` };
    const tables = new Set(
      ((await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows).map((r) => String(r[0])),
    );
    return { ok: true, counts: await rowCounts(client), tables };
  } catch (e) {
    return { ok: false, problem: (e as Error).message.split("\n")[0] };
  } finally {
    client.close();
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
  const source = await inspect(`file:${from}`);
  if (!source.ok) throw refuse.invalid(`${backup} klarade inte kontrollen och läggs inte tillbaka (${source.problem}).`);
  if (!source.tables.has("__drizzle_migrations") || !source.tables.has("customers")) {
    throw refuse.invalid(`${backup} är ingen säkerhetskopia av Returportalen (tabellerna saknas).`);
  }

  let replaced: RestoreResult["replaced"] = "missing";
  if (existsSync(file) && statSync(file).size > 0) {
    const target = await inspect(`file:${file}`);
    if (!target.ok) replaced = "damaged";
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
    const copy = await inspect(`file:${tmp}`);
    if (!copy.ok) throw refuse.invalid(`Kopian av ${backup} klarade inte integrity_check (${copy.problem}); databasen är orörd.`);
    const differs = countsDiffer(source.counts, copy.counts);
    if (differs) throw refuse.invalid(`Kopian av ${backup} har inte säkerhetskopians rader (${differs}); databasen är orörd.`);

    let keptAs: string | undefined;
    if (replaced !== "missing") {
      keptAs = `${file}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
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
