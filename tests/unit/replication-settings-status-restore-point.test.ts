// Replication's pieces (decision 039) on their own: REPLICA_URL and its settings as a start
// reads them, the lag as the servers read it from the replicator's status file, the warning
// on the admin start page, Litestream's metrics and local WAL position, and `--at` in
// Stockholm time across summer time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readConfig, type ReplicaSettings } from "../../app/config.server";
import { isRefusal } from "../../app/lib/refusal";
import {
  parseRestorePoint,
  redactedReplicaUrl,
  replicaStatusFile,
  replicationProblem,
  replicationState,
  replicationStatusLines,
  replicationWarning,
  type ReplicatorStatus,
} from "../../app/features/operations/index.server";
import { caughtUp, litestreamConfig, parseMetrics, shadowPosition } from "../../cli/replicator";

const dir = mkdtempSync(join(tmpdir(), "portal-replication-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(env: Record<string, string>): string {
  try {
    readConfig({ DATABASE_URL: "file:data/portal.db", ...env });
  } catch (e) {
    if (isRefusal(e, "invalid")) return e.message;
    throw e;
  }
  return "";
}

const settings: ReplicaSettings = { url: "file:///mnt/replika/portal", maxLagSeconds: 30, syncIntervalSeconds: 1, snapshotIntervalSeconds: 86_400, retentionSeconds: 604_800 };

describe("REPLICA_URL and its settings", () => {
  it("has the defaults an operator expects, and reads durations as Litestream writes them", () => {
    expect(readConfig({ DATABASE_URL: "file:data/portal.db" }).replica).toBeNull();
    expect(readConfig({ DATABASE_URL: "file:data/portal.db", REPLICA_URL: "s3://hink/portal" }).replica).toEqual({ ...settings, url: "s3://hink/portal" });
    expect(readConfig({ DATABASE_URL: "file:x.db", REPLICA_URL: "file:///r", REPLICA_MAX_LAG: "2m", REPLICA_SNAPSHOT_INTERVAL: "6h", REPLICA_RETENTION: "720h" }).replica).toMatchObject({
      maxLagSeconds: 120,
      snapshotIntervalSeconds: 21_600,
      retentionSeconds: 2_592_000,
    });
  });

  it("stops a start with one line for a replica it cannot use", () => {
    expect(refusal({ REPLICA_URL: "https://hink.example/portal" })).toMatch(/^REPLICA_URL ska vara file:\/\/\/sökväg/);
    expect(refusal({ REPLICA_URL: "file://relativ/sökväg" })).toMatch(/absolut sökväg|ska vara file/);
    expect(refusal({ DATABASE_URL: "libsql://portal.turso.io", REPLICA_URL: "s3://hink/portal" })).toMatch(/lokal databasfil/);
    expect(refusal({ REPLICA_URL: "s3://hink/portal", REPLICA_MAX_LAG: "abc" })).toMatch(/^REPLICA_MAX_LAG ska vara en tid/);
    expect(refusal({ REPLICA_URL: "s3://hink/portal", REPLICA_MAX_LAG: "0s" })).toMatch(/^REPLICA_MAX_LAG/);
    expect(refusal({ REPLICA_URL: "s3://hink/portal", REPLICA_RETENTION: "10m" })).toMatch(/^REPLICA_RETENTION/);
  });

  it("DATABASE_SYNC_URL: an embedded replica of a remote primary, on a local file, never with REPLICA_URL", () => {
    expect(readConfig({ DATABASE_URL: "file:data/portal.db", DATABASE_SYNC_URL: "libsql://portal.turso.io" }).databaseSyncUrl).toBe("libsql://portal.turso.io");
    expect(refusal({ DATABASE_URL: "libsql://portal.turso.io", DATABASE_SYNC_URL: "libsql://portal.turso.io" })).toMatch(/lokal fil/);
    expect(refusal({ DATABASE_SYNC_URL: "ftp://x" })).toMatch(/^DATABASE_SYNC_URL ska vara/);
    expect(refusal({ DATABASE_SYNC_URL: "libsql://p.turso.io", REPLICA_URL: "s3://hink/p" })).toMatch(/går inte ihop/);
  });

  it("prints a replica's address without its password", () => {
    expect(redactedReplicaUrl("sftp://drift:hemligt@backup.example.se/portal")).toBe("sftp://backup.example.se/portal");
    expect(redactedReplicaUrl("s3://hink/portal")).toBe("s3://hink/portal");
  });
});

describe("the lag, as every server reads it", () => {
  const file = join(dir, "portal.db");
  const url = `file:${file}`;
  const now = Date.UTC(2026, 10, 28, 6, 45);
  const write = (s: Partial<ReplicatorStatus>) =>
    writeFileSync(
      replicaStatusFile(file),
      JSON.stringify({ pid: 42, replica: settings.url, startedAt: now - 600_000, writtenAt: now - 500, running: true, caughtUpAt: now - 800, position: null, syncErrors: 0, lastError: null, ...s }),
    );

  it("off without REPLICA_URL: ready, but the admin is warned in production only", () => {
    const state = replicationState(null, url, now);
    expect(state).toEqual({ state: "unconfigured" });
    expect(replicationProblem(state)).toBeUndefined();
    expect(replicationWarning(true, state)).toMatch(/^Databasen replikeras inte \(REPLICA_URL är inte satt\)/);
    expect(replicationWarning(false, state)).toBeNull();
  });

  it("no replicator, a silent one, or Litestream down: not ready", () => {
    rmSync(replicaStatusFile(file), { force: true });
    expect(replicationProblem(replicationState(settings, url, now))).toBe("replication: replication not running");
    write({ writtenAt: now - 11_000 });
    expect(replicationProblem(replicationState(settings, url, now))).toBe("replication: replicator silent for 11 s");
    write({ running: false, lastError: "litestream avslutades (exit 1)" });
    expect(replicationProblem(replicationState(settings, url, now))).toMatch(/^replication: litestream not running \(litestream avslutades/);
    expect(replicationWarning(true, replicationState(settings, url, now))).toMatch(/^Replikeringen av databasen körs inte/);
  });

  it("caught up a moment ago: ready; 31 s since: behind, with the seconds in words", () => {
    write({});
    const ok = replicationState(settings, url, now);
    expect(ok).toMatchObject({ state: "ok", lagSeconds: 0.8 });
    expect(replicationProblem(ok)).toBeUndefined();
    expect(replicationWarning(true, ok)).toBeNull();
    write({ caughtUpAt: now - 31_000 });
    const behind = replicationState(settings, url, now);
    expect(replicationProblem(behind)).toBe("replica 31 s behind (limit 30 s)");
    expect(replicationWarning(true, behind)).toBe(
      "Replikeringen ligger 31 s efter (gränsen är 30 s): det som sparats sedan dess finns bara på serverns disk.",
    );
    expect(replicationStatusLines(settings, behind)).toEqual([
      "replikering: file:///mnt/replika/portal",
      "läge: efter, eftersläpning 31 s (gräns 30 s)",
      "senast ikapp: 2026-11-28 07:44:29",
      "replikator: pid 42, i gång sedan 2026-11-28 07:35:00",
    ]);
    // Stopped on purpose a moment ago (a server stopping): the lag counts on while another takes over; later, down.
    write({ running: false, stoppedAt: now - 2_000, caughtUpAt: now - 3_000 });
    expect(replicationState(settings, url, now)).toMatchObject({ state: "ok", lagSeconds: 3 });
    write({ running: false, stoppedAt: now - 11_000, writtenAt: now - 1_000 });
    expect(replicationProblem(replicationState(settings, url, now))).toBe("replication: replicator stopped");
    // Never caught up since it started: counted from the start.
    write({ caughtUpAt: null, startedAt: now - 40_000 });
    expect(replicationProblem(replicationState(settings, url, now))).toBe("replica 40 s behind (limit 30 s)");
  });
});

describe("Litestream's side", () => {
  it("reads the replica's position from the metrics, and nothing before its first write", () => {
    const text = [
      '# HELP litestream_replica_wal_index The current WAL index',
      'litestream_replica_wal_index{db="/srv/portal.db",name="replica"} 3',
      'litestream_replica_wal_offset{db="/srv/portal.db",name="replica"} 4.1232e+06',
      'litestream_sync_error_count{db="/srv/portal.db"} 2',
    ].join("\n");
    expect(parseMetrics(text)).toEqual({ replica: { index: 3, offset: 4_123_200 }, syncErrors: 2 });
    expect(parseMetrics('litestream_sync_error_count{db="/srv/portal.db"} 0')).toEqual({ replica: null, syncErrors: 0 });
  });

  it("reads where the local WAL copy ends from its directory (the newest file, not the sum)", () => {
    const file = join(dir, "shadow.db");
    const wal = join(dir, ".shadow.db-litestream", "generations", "89d6e3bd66c5a821", "wal");
    mkdirSync(wal, { recursive: true });
    writeFileSync(join(dir, ".shadow.db-litestream", "generation"), "89d6e3bd66c5a821\n");
    writeFileSync(join(wal, "00000009.wal"), Buffer.alloc(32_992));
    writeFileSync(join(wal, "0000000a.wal"), Buffer.alloc(4_152));
    const shadow = shadowPosition(file)!;
    expect(shadow).toEqual({ index: 10, size: 4_152 });
    expect(caughtUp(shadow, { index: 10, offset: 4_152 })).toBe(true);
    expect(caughtUp(shadow, { index: 10, offset: 32 })).toBe(false);
    expect(caughtUp(shadow, { index: 9, offset: 32_992 })).toBe(false);
    expect(shadowPosition(join(dir, "none.db"))).toBeNull();
  });

  it("configures Litestream with the database, the replica and its intervals", () => {
    const yml = litestreamConfig("/srv/portal/portal.db", { ...settings, snapshotIntervalSeconds: 21_600, retentionSeconds: 259_200 }, 40415);
    expect(yml).toContain('addr: "127.0.0.1:40415"');
    expect(yml).toContain('  - path: "/srv/portal/portal.db"');
    expect(yml).toContain('        url: "file:///mnt/replika/portal"');
    expect(yml).toMatch(/sync-interval: 1s\n\s+snapshot-interval: 6h\n\s+retention: 72h\n\s+retention-check-interval: 1h/);
  });
});

describe("--at, Stockholm time", () => {
  const now = Date.UTC(2026, 10, 28, 12, 0);
  it("reads winter and summer time, with or without seconds", () => {
    expect(parseRestorePoint("2026-11-27 07:45", now)).toBe(Date.UTC(2026, 10, 27, 6, 45));
    expect(parseRestorePoint("2026-07-01 07:45:30", now)).toBe(Date.UTC(2026, 6, 1, 5, 45, 30));
    // The night summer time ends: 03:30 is after the clock went back.
    expect(parseRestorePoint("2026-10-25 03:30", now)).toBe(Date.UTC(2026, 9, 25, 2, 30));
  });
  it("refuses the hour the clock skips and the hour it repeats, rather than guess", () => {
    expect(() => parseRestorePoint("2026-03-29 02:30", now)).toThrow(/finns inte i svensk tid/);
    expect(() => parseRestorePoint("2026-10-25 02:30", now)).toThrow(/finns två gånger i svensk tid/);
    expect(parseRestorePoint("2026-10-25 01:59", now)).toBe(Date.UTC(2026, 9, 24, 23, 59));
    expect(parseRestorePoint("2026-03-29 03:00", now)).toBe(Date.UTC(2026, 2, 29, 1, 0));
  });
  it("refuses what it cannot read, and the future", () => {
    expect(() => parseRestorePoint("igår 07:45", now)).toThrow(/går inte att tolka/);
    expect(() => parseRestorePoint("2026-11-28 13:01", now)).toThrow(/ligger i framtiden/);
    expect(() => parseRestorePoint("2026-02-30 07:45", now)).toThrow(/går inte att tolka/);
  });
});
