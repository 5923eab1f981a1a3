#!/usr/bin/env -S npx tsx
// `portal`: the operators' command line. The program itself is built in cli/program.ts.
import { closeDb } from "../db/client";
import { runPortal } from "./program";

process.exitCode = await runPortal(process.argv.slice(2));
closeDb();
