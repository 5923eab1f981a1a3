// Which DATABASE_URL the libSQL client is used with (README, Configuration): checked by
// readConfig at start and by openDb for every tool.

/** The database URL schemes the libSQL client is used with. */
export function databaseUrlProblem(url: string): string | undefined {
  if (url === ":memory:" || /^(file|libsql|https?):/i.test(url)) return undefined;
  return `DATABASE_URL ${JSON.stringify(url.length > 60 ? url.slice(0, 60) + "…" : url)} har ett okänt schema; använd file:, libsql:, http:, https: eller :memory:.`;
}
