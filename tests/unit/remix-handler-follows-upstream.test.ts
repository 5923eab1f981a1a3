// cli/remix-handler.ts is @remix-run/express's request handler with one change (the body
// limitBodies checked is taken from res.locals). This fails when the installed upstream is
// not the one the copy was compared with: compare cli/remix-handler.ts with the new
// node_modules/@remix-run/express/dist/server.js line by line, carry over what changed,
// then record the new version and hash here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const COMPARED = { version: "2.17.5", sha256: "84f083a37f67ed2f6bd3aeb5570bf750e962915bcd2f47de9a8233ee30f2a8b6" };

describe("the Remix request handler kept in cli/remix-handler.ts", () => {
  it("was compared with the @remix-run/express that is installed", () => {
    const pkg = JSON.parse(readFileSync("node_modules/@remix-run/express/package.json", "utf8")) as { version: string };
    const source = readFileSync("node_modules/@remix-run/express/dist/server.js");
    expect({ version: pkg.version, sha256: createHash("sha256").update(source).digest("hex") }).toEqual(COMPARED);
  });

  it("still differs from upstream only where the checked body is taken", () => {
    const upstream = readFileSync("node_modules/@remix-run/express/dist/server.js", "utf8");
    const ours = readFileSync("cli/remix-handler.ts", "utf8");
    // Upstream reads every body from the request stream; the copy takes limitBodies' body first.
    expect(upstream).toContain("createReadableStreamFromReadable(req)");
    expect(ours).toContain("res.locals.body");
    // The response is written as upstream writes it.
    for (const step of ["res.statusMessage = ", "res.append(", "event-stream", "writeReadableStreamToWritable("]) {
      expect(upstream, step).toContain(step);
      expect(ours, step).toContain(step);
    }
  });
});
