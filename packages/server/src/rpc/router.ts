import type { MethodDesc, MethodOutput, MethodRequest, MethodSpec, ServiceDesc, Services } from "@playfield/core";
import { services } from "@playfield/core";
import type { HandlerContext } from "./handler-context.js";

/** One method's implementation. */
export type MethodImpl<M extends MethodSpec> = (request: MethodRequest<M>, ctx: HandlerContext) => Promise<MethodOutput<M>>;

/** A service's implementation: methods left out answer `unimplemented`. */
export type ServiceImpl<S extends ServiceDesc> = { [K in keyof S["methods"]]?: MethodImpl<S["methods"][K]> };

/** Implementations of any of the platform's services, keyed like `services`. */
export type Implementations = { [K in keyof Services]?: ServiceImpl<Services[K]> };

export interface Route {
  method: MethodDesc;
  impl: MethodImpl<MethodDesc> | null;
}

/**
 * Builds the route table from the descriptors: every method of every service
 * has a path, implemented or not, so that auth is checked the same way before
 * an unbuilt method answers `unimplemented`.
 */
export function createRouter(implementations: Implementations): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const [key, service] of Object.entries(services) as [keyof Services, ServiceDesc][]) {
    const impl = implementations[key] as Record<string, MethodImpl<MethodDesc> | undefined> | undefined;
    for (const method of Object.values(service.methods) as MethodDesc[]) {
      routes.set(method.path, { method, impl: impl?.[method.localName] ?? null });
    }
  }
  return routes;
}
