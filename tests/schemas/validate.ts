// Validates XML against a schema in this folder with xmllint (Debian's libxml2-utils), as
// a bank's import would: the answer is xmllint's complaint, or "" when the file is valid.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export function schemaProblems(xml: string, schemaFile: string): string {
  const r = spawnSync("xmllint", ["--noout", "--schema", fileURLToPath(new URL(schemaFile, import.meta.url)), "-"], { input: xml, encoding: "utf8" });
  if (r.error) throw r.error;
  return r.status === 0 ? "" : r.stderr.trim();
}
