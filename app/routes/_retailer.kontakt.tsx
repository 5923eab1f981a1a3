import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { config } from "~/config.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  return { phone: config.contactPhone, email: config.contactEmail, hours: config.contactHours };
}

export default function Contact() {
  const { phone, email, hours } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Kontakt</h1>
      <p>Kundtjänst hjälper dig med returer, etiketter, leveranser och fakturor.</p>
      <dl className="facts">
        <dt>Telefon</dt>
        <dd>
          <a href={`tel:${phone.replace(/[^\d+]/g, "")}`}>{phone}</a>, {hours}
        </dd>
        <dt>E-post</dt>
        <dd>
          <a href={`mailto:${email}`}>{email}</a>
        </dd>
      </dl>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
