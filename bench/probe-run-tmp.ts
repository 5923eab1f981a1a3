import { copyFileSync } from "node:fs";
import { startServer } from "./lib";
import { b12 } from "./probe-tmp";
const db = "bench/data/probe.db";
copyFileSync("bench/data/national-6500.db", db);
const s = await startServer(db, 3391);
try {
  const r = await b12(s.url, db, (process.argv[2] as "phone") ?? "phone");
  console.log(JSON.stringify(r.on.steps), JSON.stringify(r.off.steps));
} finally { await s.stop(); }
