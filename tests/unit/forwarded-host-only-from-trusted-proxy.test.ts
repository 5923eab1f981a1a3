// X-Forwarded-Host is a proxy's word: the request URL the app sees (its host and port)
// takes it only from a peer TRUST_PROXY trusts, else from Host. Before, its port was
// read from anyone.
import express from "express";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { remixRequest } from "../../cli/remix-handler";

const servers: import("node:http").Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function urlSeen(trustProxy: false | string, headers: Record<string, string>): Promise<string> {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.get("/x", (req, res) => void res.send(remixRequest(req, res).url));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as AddressInfo;
  // node:http, not fetch: fetch may not set Host.
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/x", headers }, (res) => {
      let body = "";
      res.on("data", (d) => (body += String(d)));
      res.on("end", () => resolve(body));
    })
      .on("error", reject)
      .end();
  });
}

describe("the request URL's host", () => {
  it("ignores X-Forwarded-Host, port included, from a peer that is not a trusted proxy", async () => {
    expect(await urlSeen(false, { "X-Forwarded-Host": "evil.example:4444", Host: "retur.example.se:8443" })).toBe("http://retur.example.se:8443/x");
    expect(await urlSeen(false, { "X-Forwarded-Host": "evil.example:4444", Host: "retur.example.se" })).toBe("http://retur.example.se/x");
  });

  it("takes it from a trusted proxy, the first of a list", async () => {
    expect(await urlSeen("loopback", { "X-Forwarded-Host": "retur.example.se:8443, inner:1", Host: "10.0.0.5:3000" })).toBe("http://retur.example.se:8443/x");
    expect(await urlSeen("loopback", { Host: "[::1]:3000" })).toBe("http://[::1]:3000/x");
  });
});
