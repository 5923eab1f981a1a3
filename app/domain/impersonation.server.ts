// Staff opening a retailer's portal as that retailer. The session carries the staff
// id (impersonatorId); starting, ending and every request that changes something
// in such a session are audited under the staff user's id.
import { getCustomer } from "./customers.server";
import { audit } from "./audit.server";
import { getStaff } from "./staff.server";

type Meta = { ip?: string; requestId?: string };

/** The customer to open, or null when there is no such customer. */
export async function startImpersonation(staffId: number, customerId: number, meta: Meta = {}) {
  const customer = await getCustomer(customerId);
  if (!customer) return null;
  await audit({ actor: `staff:${staffId}`, action: "impersonation.start", target: `customer:${customerId}`, ...meta });
  return { customerId: customer.id, name: customer.name };
}

/** Ends it; false when the staff user no longer exists (the caller then logs out). */
export async function endImpersonation(staffId: number, customerId: number, meta: Meta = {}): Promise<boolean> {
  const staff = await getStaff(staffId);
  await audit({ actor: `staff:${staffId}`, action: "impersonation.end", target: `customer:${customerId}`, ...meta });
  return staff !== null;
}

export async function auditImpersonatedRequest(
  staffId: number,
  customerId: number,
  request: { method: string; path: string },
  meta: Meta = {},
): Promise<void> {
  await audit({
    actor: `staff:${staffId}`,
    action: "impersonation.request",
    target: `customer:${customerId}`,
    detail: { method: request.method, path: request.path },
    ...meta,
  });
}
