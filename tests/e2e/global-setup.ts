import { mkdirSync, readdirSync, rmSync } from "node:fs";

export default function globalSetup() {
  mkdirSync("tests/.tmp", { recursive: true });
  // Locks left by an interrupted run (fixtures.ts withGlobalLock).
  const port = process.env.E2E_PORT || 3100;
  for (const name of readdirSync("tests/.tmp")) {
    if (name.startsWith(`lock-${port}-`)) rmSync(`tests/.tmp/${name}`, { recursive: true, force: true });
  }
}
