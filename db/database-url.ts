// Which DATABASE_URL the libSQL client is used with (README, Configuration): checked by
// readConfig at start and by openDb for every tool.
import { resolve } from "node:path";

/** The database URL schemes the libSQL client is used with. */
export function databaseUrlProblem(url: string): string | undefined {
  if (url === ":memory:" || /^(file|libsql|https?):/i.test(url)) return undefined;
  return `DATABASE_URL ${JSON.stringify(url.length > 60 ? url.slice(0, 60) + "…" : url)} har ett okänt schema; använd file:, libsql:, http:, https: eller :memory:.`;
}

/** The local file behind a `file:` URL, as an absolute path, or undefined (remote, or in memory). */
export function databaseFile(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const path = url.slice("file:".length).split("?")[0];
  return path && path !== ":memory:" ? resolve(path) : undefined;
}
