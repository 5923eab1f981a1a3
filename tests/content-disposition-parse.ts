// A Content-Disposition parser for the tests (RFC 6266, RFC 8187), written from the RFCs
// rather than taken from the code under test.

export type Parsed = { type: string; params: Map<string, string> };

/** disposition-type *( ";" param ), param = token "=" ( token / quoted-string ); names case-insensitive. */
export function parseDisposition(header: string): Parsed {
  const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
  let rest = header;
  const take = (re: RegExp) => {
    const m = re.exec(rest);
    if (!m) throw new Error(`cannot parse at ${JSON.stringify(rest)} in ${JSON.stringify(header)}`);
    rest = rest.slice(m[0].length);
    return m[0];
  };
  const type = take(token).toLowerCase();
  const params = new Map<string, string>();
  while (rest.length > 0) {
    take(/^[ \t]*;[ \t]*/);
    const name = take(token).toLowerCase();
    take(/^=/);
    let value: string;
    if (rest.startsWith('"')) value = take(/^"(?:[^"\\]|\\.)*"/).slice(1, -1).replace(/\\(.)/g, "$1");
    else value = take(token);
    if (params.has(name)) throw new Error(`${name} twice in ${header}`);
    params.set(name, value);
  }
  return { type, params };
}

/** The name a client saves the file as (RFC 6266 4.3 / RFC 8187). */
export function savedName(header: string): { name: string; fallback: string } {
  const { params } = parseDisposition(header);
  const ext = params.get("filename*");
  const fallback = params.get("filename")!;
  if (!ext) return { name: fallback, fallback };
  const m = /^UTF-8'[A-Za-z-]*'(.*)$/i.exec(ext);
  if (!m) throw new Error(`filename* not UTF-8: ${ext}`);
  return { name: decodeURIComponent(m[1]), fallback };
}
