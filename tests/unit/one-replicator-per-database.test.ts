// Several servers on one database file start one replicator each (decision 039); only the
// lock holder runs Litestream, a second Litestream would corrupt the first's copy of the
// WAL. When the holder dies without a word (SIGKILL: no chance to stop its Litestream), a
// waiting replicator takes the lock, stops the Litestream left behind and runs its own.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, prepareDb } from "../../db/client";
import type { ReplicatorStatus } from "../../app/features/operations/index.server";
import { litestreamAlive } from "../litestream-alive";

const dir = mkdtempSync(join(tmpdir(), "portal-one-replicator-"));
const file = join(dir, "portal.db");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function replicator(): { child: ChildProcess; log: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "replica", "run"], {
    env: { ...process.env, DATABASE_URL: `file:${file}`, REPLICA_URL: `file://${dir}/replica`, REPLICA_MAX_LAG: "5s" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let log = "";
  child.stderr!.on("data", (d) => (log += String(d)));
  return { child, log: () => log };
}

function status(): ReplicatorStatus | null {
  try {
    return JSON.parse(readFileSync(join(dir, ".portal.db-replica.json"), "utf8")) as ReplicatorStatus;
  } catch {
    return null;
  }
}

const alive = litestreamAlive;

async function until<T>(get: () => T | null | undefined | false, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("one replicator per database", () => {
  it("two start, one replicates; its death hands over to the other, whose Litestream replaces the orphan", async () => {
    const db = openDb(`file:${file}`);
    await prepareDb(db);
    db.$client.close();
    const a = replicator();
    const withLitestream = () => {
      const s = status();
      return s?.litestreamPid ? s : null;
    };
    const first = await until(withLitestream, "no replicator wrote its status");
    const b = replicator();
    await until(() => b.log().includes("en annan process replikerar redan") || a.log().includes("en annan process replikerar redan"), "neither replicator waits");
    const holder = first.pid === a.child.pid ? a : b;
    const standby = holder === a ? b : a;
    expect(holder.child.pid).toBe(first.pid);
    expect(standby.log()).toContain("en annan process replikerar redan databasen");

    // The holder dies without stopping its Litestream.
    holder.child.kill("SIGKILL");
    expect(alive(first.litestreamPid!)).toBe(true);
    const next = await until(() => {
      const s = withLitestream();
      return s?.pid === standby.child.pid ? s : null;
    }, "the standby never took over");
    expect(next.litestreamPid).not.toBe(first.litestreamPid);
    await until(() => !alive(first.litestreamPid!), "the orphaned Litestream still runs");
    expect(standby.log()).toContain(`en kvarlämnad Litestream (pid ${first.litestreamPid}) stoppades`);

    // Stopped as a server stops it: its Litestream goes with it, and the status file says it stopped.
    const exited = new Promise((r) => standby.child.once("exit", r));
    standby.child.kill("SIGTERM");
    await exited;
    expect(alive(next.litestreamPid!)).toBe(false);
    expect(status()).toMatchObject({ pid: standby.child.pid, running: false });
    expect(status()!.stoppedAt).toBeGreaterThan(next.writtenAt);
  }, 60_000);
});
