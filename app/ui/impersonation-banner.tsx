import { Form } from "@remix-run/react";
import { CsrfInput } from "~/ui/csrf";

/** Shown on every retailer page while a staff member uses the portal as the retailer. */
export function ImpersonationBanner({ customerName }: { customerName: string }) {
  return (
    <div
      className="impersonation-banner"
      role="region"
      aria-label="Personalinloggning"
      style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem 1rem", alignItems: "center", justifyContent: "space-between", background: "#fff3cd", borderBottom: "2px solid #b35c00", padding: "0.5rem 1rem", fontWeight: 600 }}
    >
      <span>Du är inloggad som {customerName} via personalkonto</span>
      <Form method="post" action="/tillbaka-till-personal" reloadDocument style={{ margin: 0 }}>
        <CsrfInput />
        <button type="submit">Tillbaka till personalkontot</button>
      </Form>
    </div>
  );
}
