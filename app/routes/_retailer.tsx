import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { UserHeader } from "~/ui/header";
import { retailerMenu } from "~/ui/menu";
import { Nav } from "~/ui/nav";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRetailer(request);
  return { name: user.name, impersonated: user.impersonatorId !== null };
}

export default function RetailerLayout() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <>
      <UserHeader name={name} home="/" />
      <div className="shell">
        <Nav items={retailerMenu} />
        <main className="page">
          <Outlet />
        </main>
      </div>
    </>
  );
}
