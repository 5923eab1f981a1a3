// B15: a national month settled after its run. The month so far is invoiced;
// then 5 % of its returns are reported or raised after the run and 1 % of its deliveries are
// claimed and approved; the next period's run settles them while retailers save and log in
// (B11's traffic and targets); Avstämning for the month answers, and adds up.
import { createClient } from "@libsql/client";
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { SELLER_ENV } from "../tests/production-env";
import { b11, type B11 } from "./b11";
import { log, useAppDatabase } from "./lib";

export type B15 = { firstRunSeconds: number; lateReturns: number; claims: number; settle: B11; reconcileMs: number[]; balanced: boolean; difference: { copies: number; ore: number } };

function runInvoice(dbFile: string, from: string, to: string): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "invoice", "run", "--from", from, "--to", to], {
    env: { ...process.env, DATABASE_URL: `file:${dbFile}`, NODE_ENV: "production", ...SELLER_ENV },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`B15: invoice run ${from}..${to} failed: ${r.stderr}`);
  return (performance.now() - started) / 1000;
}

export async function b15(
  url: string,
  dbFile: string,
  customers: number,
  month: { from: string; to: string },
  next: { from: string; to: string },
  makeSessions: (dbFile: string, ids: number[]) => Promise<Map<number, string>>,
  formToken: (id: number) => string,
): Promise<B15> {
  log(`B15 ${customers}: invoice run ${month.from}..${month.to}`);
  const firstRunSeconds = runInvoice(dbFile, month.from, month.to);
  const client = createClient({ url: `file:${dbFile}` });
  await client.execute("pragma busy_timeout = 20000");
  // 5 % of the month's returns raised by one copy after the run (where a copy is left to return).
  const raised = await client.execute({
    sql: `update returns set amount = amount + 1, updated_at = ?
      where id in (select r.id from returns r join deliveries d on d.id = r.delivery_id
        where d.delivery_date between ? and ? and r.amount < d.delivered and (r.id * 2654435761) % 100 < 5)`,
    args: [Date.now(), month.from, month.to],
  });
  // 1 % of the month's deliveries claimed one copy short, and approved.
  const claimed = await client.execute({
    sql: `insert into claims (delivery_id, customer_id, copies, status, approved, reason, decided_by, decided_at)
      select d.id, d.customer_id, 1, 'approved', 1, null, 'bench', ? from deliveries d
      where d.delivery_date between ? and ? and d.delivered > 1 and (d.id * 2654435761) % 100 < 1
        and not exists (select 1 from claims k where k.delivery_id = d.id)`,
    args: [Date.now(), month.from, month.to],
  });
  client.close();
  log(`B15 ${customers}: ${raised.rowsAffected} returns raised after the run, ${claimed.rowsAffected} claims approved; the next run settles them under traffic`);
  const settle = await b11(url, dbFile, customers, next, makeSessions, formToken);
  // Avstämning for the month, in this process as the server answers it: three times.
  await useAppDatabase(dbFile);
  const { reconcile, reconciles } = await import("../app/features/invoices/reconcile.server");
  const reconcileMs: number[] = [];
  let result: Awaited<ReturnType<typeof reconcile>> | null = null;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    result = await reconcile(month);
    reconcileMs.push(performance.now() - t);
  }
  return {
    firstRunSeconds,
    lateReturns: raised.rowsAffected,
    claims: claimed.rowsAffected,
    settle,
    reconcileMs,
    balanced: reconciles(result!),
    difference: result!.total.difference,
  };
}
