// Typed route parameters: a `$param` of the URL parsed by a feature's parser, and the
// Swedish 404 page for anything it refuses (a route never works on an unchecked param).
import type { Params } from "@remix-run/react";

export function routeParam<T>(params: Params, name: string, parse: (raw: string | undefined) => T | null, notFound = "Sidan finns inte."): T {
  const value = parse(params[name]);
  if (value === null) throw new Response(notFound, { status: 404 });
  return value;
}

/**
 * `path` with the list's own query (its search, sort and page) from the request and nothing
 * else: where a row's action sends the user back to, the list as they left it.
 */
export function listUrl(request: Request, path: string, keys: readonly string[]): string {
  const from = new URL(request.url).searchParams;
  const back = new URLSearchParams();
  for (const key of keys) {
    const value = from.get(key);
    if (value) back.set(key, value);
  }
  return back.size ? `${path}?${back}` : path;
}

/** `123.pdf` → 123 (1–9 digits), else null: the file name of a PDF download. */
export function pdfNumber(raw: string | undefined): number | null {
  const match = /^(\d{1,9})\.pdf$/.exec(raw ?? "");
  return match ? Number(match[1]) : null;
}
