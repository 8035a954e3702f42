import type { AdminMethodDesc, AdminMethodOutput, AdminMethodRequest, AdminMethodSpec, AdminServiceDesc, AdminServices } from "@playfield/core";
import { adminServices } from "@playfield/core";
import type { AdminContext } from "./admin-context.js";

/** One admin method's implementation. */
export type AdminMethodImpl<M extends AdminMethodSpec> = (request: AdminMethodRequest<M>, ctx: AdminContext) => Promise<AdminMethodOutput<M>>;

/** An admin service's implementation: methods left out answer `unimplemented`. */
export type AdminServiceImpl<S extends AdminServiceDesc> = { [K in keyof S["methods"]]?: AdminMethodImpl<S["methods"][K]> };

/** Implementations of the admin services, keyed like `adminServices`. */
export type AdminImplementations = { [K in keyof AdminServices]?: AdminServiceImpl<AdminServices[K]> };

export interface AdminRoute {
  method: AdminMethodDesc;
  impl: AdminMethodImpl<AdminMethodDesc> | null;
}

/** The admin route table from the descriptors: every method has a path, built or not. */
export function createAdminRouter(implementations: AdminImplementations): Map<string, AdminRoute> {
  const routes = new Map<string, AdminRoute>();
  for (const [key, service] of Object.entries(adminServices) as [keyof AdminServices, AdminServiceDesc][]) {
    const impl = implementations[key] as Record<string, AdminMethodImpl<AdminMethodDesc> | undefined> | undefined;
    for (const method of Object.values(service.methods) as AdminMethodDesc[]) {
      routes.set(method.path, { method, impl: impl?.[method.localName] ?? null });
    }
  }
  return routes;
}
