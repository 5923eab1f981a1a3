// Runs before each test file: a private copy of the migrated template database.
import { copyFileSync, mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll } from "vitest";
import { closeDb } from "../../db/client";

mkdirSync("tests/.tmp/unit", { recursive: true });
const file = `tests/.tmp/unit/${randomUUID()}.db`;
copyFileSync("tests/.tmp/unit-template.db", file);
process.env.DATABASE_URL = `file:${file}`;

afterAll(() => closeDb());
