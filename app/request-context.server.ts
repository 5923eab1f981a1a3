// Per-request facts (request id, client address) set by the HTTP server in
// cli/serve.ts through an AsyncLocalStorage it registers on globalThis, so code
// in the Remix build and code outside it see the same store.
import type { AsyncLocalStorage } from "node:async_hooks";

export type RequestInfo = { requestId: string; ip: string };

type Holder = { __portalRequestStore?: AsyncLocalStorage<RequestInfo> };

export function requestInfo(): RequestInfo {
  return (globalThis as Holder).__portalRequestStore?.getStore() ?? { requestId: "-", ip: "" };
}
