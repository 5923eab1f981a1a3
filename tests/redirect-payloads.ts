// Open-redirect payload families, shared by the unit property test
// of safeRedirect and the e2e test that logs in with them. A payload is a lead (what
// comes before the host), a host, a tail, and now and then one more dangerous
// character inserted somewhere.
import fc from "fast-check";

export const LEADS = [
  "//", "///", "/\\", "\\\\", "\\/", "/\t/", "/\r/", "/\n/", "/\u0000/", "\t//", " //", "/ /",
  "/%09/", "/%0d/", "/%0a/", "/%00/", "/%2f", "/%2F/", "/%5c", "/%5C/", "%2f%2f", "/%2f%2f", "/%252f%252f",
  "javascript:", "JaVaScRiPt:", "java\tscript:", "jav&#x09;ascript:", "data:text/html,", "vbscript:",
  "http:", "http:/", "https:", "https://", "HTTPS://", "http:\\\\", "ftp://", "//\t", "/\t\\",
  "/.//", "/..//", "/./\\", "/.%2f/", "/%2e%2e//", "/./%09/",
  "／／", "/／", "∕∕", "/∕", "⁄⁄", "\uff3c\uff3c", "/\u2028/", "/\u200b/", "/\u00a0/", "/\u0085/",
];
export const HOSTS = ["evil.example", "evil.example:443", "user:pw@evil.example", "evil。example", "ｅｖｉｌ.example", "127.0.0.1", "[::1]", "%65vil.example", ""];
export const TAILS = ["", "/", "/x", "?a=1", "#h", "/%2e%2e/admin", "@evil.example", "\\evil.example"];
const DANGEROUS = ["\t", "\r", "\n", "\u0000", "\\", "/", "%09", "%0a", "%00", "%2f", "%5c", "@", ":", "．", "\u3002", "\u2215", "\uff0f"];

export const redirectPayload = fc
  .tuple(fc.constantFrom(...LEADS), fc.constantFrom(...HOSTS), fc.constantFrom(...TAILS), fc.option(fc.tuple(fc.nat(40), fc.constantFrom(...DANGEROUS)), { nil: null }))
  .map(([lead, host, tail, insert]) => {
    const s = lead + host + tail;
    if (!insert) return s;
    const at = insert[0] % (s.length + 1);
    return s.slice(0, at) + insert[1] + s.slice(at);
  });

/** Every lead with the plain host, the issue's own examples, and `random` more from the generator (seeded). */
export function redirectPayloads(random: number, seed = 13): string[] {
  const fixed = [
    "/%09/evil.example", "/\t/evil.example", "//evil.example", "/\\evil.example", "/%2f/evil.example", "/%5cevil.example",
    "javascript:alert(1)", "http:evil.example", "https://evil.example", "/.//evil.example", "/..//evil.example/",
    ...LEADS.map((lead) => `${lead}evil.example`),
  ];
  return [...new Set([...fixed, ...fc.sample(redirectPayload, { numRuns: random, seed })])];
}
