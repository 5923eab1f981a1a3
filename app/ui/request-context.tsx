import { createContext, useContext } from "react";

// The request id and CSP nonce of the server render. In the browser they are read
// back from the <meta> tags the server wrote, so hydration sees the same values.
export type RequestValues = { nonce: string; requestId: string; css?: string };

function fromDocument(): RequestValues {
  if (typeof document === "undefined") return { nonce: "", requestId: "" };
  const meta = document.querySelector<HTMLMetaElement>('meta[name="request-id"]');
  return { nonce: "", requestId: meta?.content ?? "" };
}

export const RequestContext = createContext<RequestValues | null>(null);

export function useRequestValues(): RequestValues {
  return useContext(RequestContext) ?? fromDocument();
}
