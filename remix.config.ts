import type { VitePluginConfig } from "@remix-run/dev";

// The Remix Vite plugin options, read by vite.config.ts. All v3 future flags are
// on so the later move to React Router 7 stays a codemod.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export const remixConfig: VitePluginConfig = {
  // Several checkouts of work in progress may build side by side (REMIX_BUILD_DIR).
  buildDirectory: process.env.REMIX_BUILD_DIR || "build",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};
