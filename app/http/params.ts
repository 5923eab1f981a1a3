// Typed route parameters: a `$param` of the URL parsed by a feature's parser, and the
// Swedish 404 page for anything it refuses (a route never works on an unchecked param).
import type { Params } from "@remix-run/react";

export function routeParam<T>(params: Params, name: string, parse: (raw: string | undefined) => T | null, notFound = "Sidan finns inte."): T {
  const value = parse(params[name]);
  if (value === null) throw new Response(notFound, { status: 404 });
  return value;
}

/** `123.pdf` → 123 (1–9 digits), else null: the file name of a PDF download. */
export function pdfNumber(raw: string | undefined): number | null {
  const match = /^(\d{1,9})\.pdf$/.exec(raw ?? "");
  return match ? Number(match[1]) : null;
}
