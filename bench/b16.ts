// B16: a national recall. One edition of the day most shops got it, for every distributor:
// how long making the recall takes (the acknowledgement rows of every shop it reaches, in
// one statement), that each of them is then locked (the alert), and the mails to every shop
// sent by two processes at once (two app servers' jobs) through a real SMTP server, each once.
import { createClient } from "@libsql/client";
import { spawn, spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { SELLER_ENV } from "../tests/production-env";
import { startSmtpCatcher } from "../tests/smtp-catcher";
import { log, useAppDatabase } from "./lib";

export type B16 = { customers: number; createMs: number; locked: number; sampled: number; alertMs: number[]; mails: number; distinct: number; mailSeconds: number; perProcess: number[] };

export async function b16(dbFile: string): Promise<B16> {
  const env = { ...process.env, DATABASE_URL: `file:${dbFile}`, NODE_ENV: "production", ...SELLER_ENV, PORTAL_URL: "https://retur.example.se" };
  if (spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "db", "migrate"], { env: env as NodeJS.ProcessEnv, encoding: "utf8" }).status !== 0) throw new Error("B16: migrate failed");
  const client = createClient({ url: `file:${dbFile}` });
  // Every shop has an address (a national network's contact addresses).
  await client.execute("update customers set email = 'kund' || id || '@bench.example' where email = ''");
  const [day] = (await client.execute("select delivery_date as d, count(distinct customer_id) as n from deliveries where title_id = 1 and edition_id = 1 group by delivery_date order by n desc, d desc limit 1")).rows;
  client.close();
  await useAppDatabase(dbFile);
  const { createRecall } = await import("../app/features/recalls/index.server");
  const { listAlerts } = await import("../app/features/alerts/index.server");
  const deadline = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  log(`B16: a recall of Aftonbladet ${day.d} (${day.n} shops got it)`);
  const started = performance.now();
  const made = await createRecall(
    { titleId: 1, editionIds: [1], from: String(day.d), to: String(day.d), reason: "Bench: domstolsbeslut", action: "returnera", distributorIds: null, deadlineDate: deadline, deadlineTime: "12:00" },
    { id: "bench" },
  );
  const createMs = performance.now() - started;
  // Every 65th shop's next page: the alert that locks it, and what computing it costs.
  const verify = createClient({ url: `file:${dbFile}` });
  const ids = (await verify.execute({ sql: "select customer_id as id from recall_customers where recall_id = ? and customer_id % 65 = 0", args: [made.id] })).rows.map((r) => Number(r.id));
  verify.close();
  const alertMs: number[] = [];
  let locked = 0;
  for (const id of ids) {
    const t = performance.now();
    const alerts = await listAlerts(id);
    alertMs.push(performance.now() - t);
    if (alerts[0]?.type === "ATERKALLELSE" && alerts[0].imperative) locked++;
  }
  // The mails: two processes at once against one SMTP server.
  const recipients: string[] = [];
  const smtp = await startSmtpCatcher(recipients);
  const mailStarted = performance.now();
  const worker = () =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "bench/b16-mail-worker.ts"], { env: { ...env, SMTP_URL: smtp.url } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d) => (out += String(d)));
      child.on("exit", (code) => (code === 0 ? resolve((JSON.parse(out) as { sent: number }).sent) : reject(new Error(`B16 mail worker exit ${code}`))));
    });
  const perProcess = await Promise.all([worker(), worker()]);
  const mailSeconds = (performance.now() - mailStarted) / 1000;
  await smtp.close();
  log(`B16: ${made.customers} shops in ${Math.round(createMs)} ms; ${recipients.length} mails (${new Set(recipients).size} addresses) in ${mailSeconds.toFixed(1)} s, ${perProcess.join(" + ")}`);
  return { customers: made.customers, createMs, locked, sampled: ids.length, alertMs, mails: recipients.length, distinct: new Set(recipients).size, mailSeconds, perProcess };
}
