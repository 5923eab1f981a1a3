import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { menuFor, staffMenu } from "~/ui/menu";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request, ["admin"]);
  const service = menuFor(staffMenu, user.roles).find((m) => m.label === "Kundtjänst");
  return { name: user.name, entries: service?.children ?? [] };
}

export default function AdminStart() {
  const { name, entries } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Admin</h1>
      <p>Inloggad som {name}.</p>
      {entries.length > 0 ? (
        <ul className="entry-grid">
          {entries.map((e) => (
            <li key={e.to}>
              <Link to={e.to}>{e.label}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
