import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { openDb } from "../../db/client";

export default async function globalSetup() {
  mkdirSync("tests/.tmp", { recursive: true });
  // Locks left by an interrupted run (fixtures.ts withGlobalLock).
  const port = process.env.E2E_PORT || 3100;
  for (const name of readdirSync("tests/.tmp")) {
    if (name.startsWith(`lock-${port}-`)) rmSync(`tests/.tmp/${name}`, { recursive: true, force: true });
  }
  // Playwright starts the web server (which seeds the demo) before this runs. The demo's
  // last month is invoiced by a real run; the e2e tests invoice far-off periods of their
  // own, and after the demo's month every one of them would be refused for leaving this
  // month unbilled (the gap rule, tested in its own right). So the e2e database starts as
  // the demo was before its run: nothing invoiced, every return uncredited.
  const db = openDb(`file:tests/.tmp/e2e-${port}.db`);
  try {
    await db.$client.batch(
      [
        "update returns set credited = 0 where credited <> 0",
        "update claims set invoice_id = null, run_id = null where invoice_id is not null",
        "delete from invoice_credits",
        "delete from invoice_lines",
        "delete from invoices",
        "delete from invoice_runs",
      ],
      "write",
    );
  } finally {
    db.$client.close();
  }
}
