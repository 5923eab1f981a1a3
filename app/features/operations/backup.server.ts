// `portal backup`: a consistent copy of the live database. VACUUM INTO writes a
// compacted snapshot while the app keeps running (readers and the one writer are
// not blocked for longer than the copy's read transaction); the copy is checked
// with PRAGMA integrity_check before it gets its final name, and an existing file
// is never overwritten (link() fails with EEXIST, atomically).
import { createClient } from "@libsql/client";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { getDb, type Db } from "~/db.server";
import { refuse } from "~/lib/refusal";

export type BackupResult = { file: string; bytes: number; ms: number };

export async function backupDatabase(out: string, db: Db = getDb()): Promise<BackupResult> {
  const started = Date.now();
  if (db.$client.protocol !== "file") throw refuse.invalid("backup kopierar bara en lokal databasfil (file:…); för Turso/sqld, använd deras säkerhetskopior.");
  const file = resolve(out);
  if (existsSync(file)) throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
  if (!existsSync(dirname(file))) throw refuse.notFound(`Katalogen ${dirname(file)} finns inte.`);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await db.$client.execute({ sql: "VACUUM INTO ?", args: [tmp] });
    const copy = createClient({ url: `file:${tmp}` });
    try {
      const res = await copy.execute("PRAGMA integrity_check");
      const answer = res.rows.map((r) => String(r[0])).join("; ");
      if (answer !== "ok") throw refuse.invalid(`Kopian klarade inte integrity_check: ${answer}`);
    } finally {
      copy.close();
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw refuse.conflict(`${out} finns redan; välj ett nytt filnamn.`);
      throw e;
    }
    return { file, bytes: statSync(file).size, ms: Date.now() - started };
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
