// Runs before each test file: a private copy of the migrated template database.
import { copyFileSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, inject } from "vitest";
import { closeDb } from "../../db/client";

const file = `${inject("tmpDir")}/${randomUUID()}.db`;
copyFileSync(inject("templateDb"), file);
process.env.DATABASE_URL = `file:${file}`;

afterAll(() => {
  closeDb();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
});
