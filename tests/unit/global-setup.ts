// Builds one migrated database file per run; each test file then works on its own copy.
import { mkdirSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { openDb, prepareDb } from "../../db/client";

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    tmpDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = `tests/.tmp/unit-${process.pid}`;
  mkdirSync(dir, { recursive: true });
  const template = `${dir}/template.db`;
  const db = openDb(`file:${template}`);
  await prepareDb(db);
  await db.$client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await db.$client.execute("PRAGMA journal_mode=DELETE");
  db.$client.close();
  project.provide("templateDb", template);
  project.provide("tmpDir", dir);
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
