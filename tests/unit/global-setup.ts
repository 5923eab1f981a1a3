// Builds one migrated database file; each test file then works on its own copy.
import { mkdirSync, rmSync } from "node:fs";
import { openDb, prepareDb } from "../../db/client";

export const TEMPLATE = "tests/.tmp/unit-template.db";

export default async function setup() {
  mkdirSync("tests/.tmp", { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(TEMPLATE + suffix, { force: true });
  process.env.DATABASE_URL = `file:${TEMPLATE}`;
  const db = openDb(`file:${TEMPLATE}`);
  await prepareDb(db);
  await db.$client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await db.$client.execute("PRAGMA journal_mode=DELETE");
  db.$client.close();
}
