// Staff opening a retailer's portal as that retailer. The session carries the staff
// id (impersonatorId); starting, ending and every request that changes something
// in such a session are audited under the staff user's id.
import { getCustomer } from "~/features/customers/customers.server";
import { audit, staffActor } from "~/features/audit/audit.server";
import { getStaff } from "~/features/staff/staff.server";

type Meta = { ip?: string | null; requestId?: string | null };

/**
 * The customer to open, or null when there is no such customer. A deactivated customer's
 * portal opens only when `confirmed` (the page asks first); until then `needsConfirm`.
 */
export async function startImpersonation(staffId: number, customerId: number, meta: Meta = {}, options: { confirmed?: boolean } = {}) {
  const customer = await getCustomer(customerId);
  if (!customer) return null;
  const deactivated = customer.deactivatedAt !== null;
  if (deactivated && !options.confirmed) return { customerId: customer.id, name: customer.name, needsConfirm: true as const };
  await audit({
    actor: staffActor(staffId, meta),
    action: "impersonation.start",
    target: `customer:${customerId}`,
    detail: deactivated ? { deactivated: true } : undefined,
  });
  return { customerId: customer.id, name: customer.name, needsConfirm: false as const };
}

/** Ends it; false when the staff user no longer exists (the caller then logs out). */
export async function endImpersonation(staffId: number, customerId: number, meta: Meta = {}): Promise<boolean> {
  const staff = await getStaff(staffId);
  await audit({ actor: staffActor(staffId, meta), action: "impersonation.end", target: `customer:${customerId}` });
  return staff !== null;
}

export async function auditImpersonatedRequest(
  staffId: number,
  customerId: number,
  request: { method: string; path: string; download?: boolean },
  meta: Meta = {},
): Promise<void> {
  await audit({
    actor: { ...staffActor(staffId, meta), onBehalfOf: `customer:${customerId}` },
    action: request.download ? "impersonation.download" : "impersonation.request",
    target: `customer:${customerId}`,
    detail: { method: request.method, path: request.path },
  });
}
