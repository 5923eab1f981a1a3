import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { UserHeader } from "~/ui/header";
import { menuFor, staffMenu } from "~/ui/menu";
import { Nav } from "~/ui/nav";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context);
  return { name: user.name, menu: menuFor(staffMenu, user.roles) };
}

export default function StaffLayout() {
  const { name, menu } = useLoaderData<typeof loader>();
  return (
    <>
      <UserHeader name={name} home={menu.some((m) => m.to === "/admin") ? "/admin" : "/admin/distribution"} />
      <div className="shell wide">
        <Nav items={menu} />
        <main id="main" tabIndex={-1} className="page">
          <Outlet />
        </main>
      </div>
    </>
  );
}
