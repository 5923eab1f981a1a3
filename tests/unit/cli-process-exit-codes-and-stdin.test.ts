// The `portal` command as the operator runs it, a real process (tsx cli/portal.ts): what
// only a process shows. Exit codes 0/1/2 and the messages on stderr, help on stdout, and
// a PIN read from a real standard input and never echoed. Everything else about the
// commands runs in-process (tests/unit/cli-run.ts); the killed import is in
// cli-invoice-payout-export-backup.test.ts.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { verifySecret } from "../../app/features/auth/passwords.server";
import { spawnCli } from "./cli-run";
import { baseData, db } from "./helpers";

vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await baseData();
});

describe("portal as a process", () => {
  it("exits 0 with --help on stdout, 2 on a usage error, 1 on a failure, each with its message on stderr", () => {
    const help = spawnCli(["import", "deliveries", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exempel:\n {2}zcat \S+ \| npm run portal -- import deliveries -/);

    // Our own usage check (commander's own, e.g. an unknown command, is proven in-process).
    const badDate = spawnCli(["invoice", "run", "--from", "2026-13-01", "--to", "2026-01-31"]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain("portal: --from ska vara ett datum ÅÅÅÅ-MM-DD.");

    const missing = spawnCli(["import", "deliveries", "tests/fixtures/no-such-file.csv"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("portal: Kan inte läsa tests/fixtures/no-such-file.csv: ENOENT");
  });

  it("reads a PIN from standard input, never echoes it, and asks for a terminal without --pin-stdin", async () => {
    const add = spawnCli(["customer", "add", "--id", "31400", "--name", "Kiosken Process", "--distributor", "1", "--pin-stdin"], { input: "482913\n" });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain("Kund 31400 tillagd.");
    expect(add.stdout + add.stderr).not.toContain("482913");
    const [row] = await db().select().from(schema.customers).where(eq(schema.customers.id, 31400));
    expect(await verifySecret("482913", row.pinHash)).toBe(true);

    const noTerminal = spawnCli(["customer", "set-pin", "31400"], { input: "" });
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain("Ingen terminal att fråga på");
  });
});
