// B17: Leveransändring at national scale (decision 037). On a copy of the national database
// with one open request per shop (6,500): the staff queue's pages and filters, then all of
// them decided and sent to planning in one export; and the suggestions of the whole country
// at 20,000 shops, as an operator runs them (`portal supply suggest`).
import { createClient } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { log, useAppDatabase } from "./lib";

export type B17 = { requests: number; queueMs: { what: string; ms: number }[]; exportRows: number; exportMs: number };

export async function b17(dbFile: string): Promise<B17> {
  if (spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "db", "migrate"], { env: { ...process.env, DATABASE_URL: `file:${dbFile}` }, encoding: "utf8" }).status !== 0) throw new Error("B17: migrate failed");
  const client = createClient({ url: `file:${dbFile}` });
  // One open request per shop: Aftonbladet on Saturdays, the start a Monday ahead.
  await client.execute(`insert into supply_changes (customer_id, title_id, edition_id, weekday, old_copies, requested, status, origin, start_date, cutoff_at, created_by)
    select id, 1, 1, 6, 10, 12, 'sent', 'retailer', date('now', '+' || ((id % 4) * 7) || ' days', 'weekday 1'), ${Date.now() + 86_400_000}, 'customer:' || id from customers`);
  const [{ n }] = (await client.execute("select count(*) as n from supply_changes where status = 'sent'")).rows as unknown as { n: number }[];
  const [{ d }] = (await client.execute("select distributor_id as d from customers group by distributor_id order by count(*) desc limit 1")).rows as unknown as { d: number }[];
  client.close();
  await useAppDatabase(dbFile);
  const { supplyQueue, decideSupplyChanges, exportSupplyChanges, supplyExportRows, planningCsv } = await import("../app/features/supply/index.server");
  const all: { distributorIds: number[] | null } = { distributorIds: null };
  const base = { filter: "oppna" as const, distributorId: null, titleId: null, startFrom: null, startTo: null, page: 1 };
  const queueMs: { what: string; ms: number }[] = [];
  const time = async (what: string, q: Parameters<typeof supplyQueue>[0], scope = all) => {
    await supplyQueue(q, scope);
    const started = performance.now();
    const r = await supplyQueue(q, scope);
    queueMs.push({ what: `${what} (${r.total} rows)`, ms: performance.now() - started });
  };
  await time("open, page 1", base);
  await time("open, page 100", { ...base, page: 100 });
  await time("one distributor, Aftonbladet, a start week", { ...base, distributorId: Number(d), titleId: 1, startFrom: "2000-01-01", startTo: "2999-12-31" });
  await time("undecided past the cut-off", { ...base, filter: "ej-beslutade" });
  await time("a utb user's own", base, { distributorIds: [Number(d)] });
  // Every one of them approved (the boxes, 500 at a time), then one export.
  const staff = { actor: { id: "bench" }, email: "bench@example" };
  const db = createClient({ url: `file:${dbFile}` });
  const all6500 = (await db.execute("select id from supply_changes where status = 'sent'")).rows.map((r) => Number(r.id));
  db.close();
  for (let i = 0; i < all6500.length; i += 500) await decideSupplyChanges(all6500.slice(i, i + 500), { decision: "approve" }, all, staff);
  const started = performance.now();
  const made = await exportSupplyChanges(all, "bench@example", { id: "bench" });
  const file = planningCsv((await supplyExportRows(made!.id, all))!.rows);
  const exportMs = performance.now() - started;
  log(`B17: ${n} requests; export of ${made!.rowCount} changes, ${Math.round(file.length / 1024)} KB, in ${Math.round(exportMs)} ms`);
  return { requests: Number(n), queueMs, exportRows: made!.rowCount, exportMs };
}

/** The suggestions of every shop of a database, as `portal supply suggest` computes and writes them: seconds and rows. */
export function b17Suggestions(dbFile: string, out: string): { seconds: number; rows: number } {
  rmSync(out, { force: true });
  const env = { ...process.env, DATABASE_URL: `file:${dbFile}` };
  if (spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "db", "migrate"], { env, encoding: "utf8" }).status !== 0) throw new Error("B17: migrate failed");
  const started = performance.now();
  // The compiled CLI, as an operator runs it (the bench builds first).
  const r = spawnSync(process.execPath, ["build/cli/portal.js", "supply", "suggest", "--out", out], { env, encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`B17: supply suggest failed: ${r.stderr}`);
  const rows = Number(/^(\d+) förslag/.exec(r.stdout)?.[1] ?? NaN);
  log(`B17: ${rows} suggestions in ${seconds.toFixed(1)} s`);
  return { seconds, rows };
}
