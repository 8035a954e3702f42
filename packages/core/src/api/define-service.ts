import type { z } from "zod";
import type { AnyMessage } from "../wire/fields.js";
import type { AuthLevel, AuthRule, Scope } from "./auth-level.js";

/** One method of a service, as plain data: the only place a method is described. */
export interface MethodSpec<I extends AnyMessage = AnyMessage, O extends AnyMessage = AnyMessage> {
  input: I;
  output: O;
  auth: AuthLevel;
  /** Scoped tokens that may call it besides the auth level's callers. */
  scopes?: readonly Scope[];
  summary: string;
}

/** A method with its wire name (`GetMe`) and its service filled in. */
export interface MethodDesc<I extends AnyMessage = AnyMessage, O extends AnyMessage = AnyMessage> extends MethodSpec<I, O>, AuthRule {
  /** camelCase name used in code: `getMe`. */
  localName: string;
  /** PascalCase name on the wire: `GetMe`. */
  name: string;
  scopes: readonly Scope[];
  /** `/svc.platform.v1.IdentityService/GetMe` */
  path: string;
  service: string;
}

export interface ServiceDesc<M extends Record<string, MethodSpec> = Record<string, MethodSpec>> {
  /** Fully qualified name: `svc.platform.v1.IdentityService`. */
  typeName: string;
  /** The client's property for it: `identity`. */
  localName: string;
  summary: string;
  methods: { [K in keyof M]: MethodDesc<M[K]["input"], M[K]["output"]> };
}

/**
 * Defines a service from its methods. A typed identity helper: it adds the
 * derived names and paths and nothing else.
 *
 * @example
 * export const IdentityService = defineService({
 *   typeName: "svc.platform.v1.IdentityService",
 *   localName: "identity",
 *   summary: "Accounts, sign-in, guests, devices.",
 *   methods: { getMe: { input: GetMeRequest, output: Me, auth: "guest", scopes: ["studio"], summary: "The signed-in user." } },
 * });
 */
export function defineService<const M extends Record<string, MethodSpec>>(spec: {
  typeName: string;
  localName: string;
  summary: string;
  methods: M;
}): ServiceDesc<M> {
  const methods = {} as Record<string, MethodDesc>;
  for (const [localName, method] of Object.entries(spec.methods)) {
    methods[localName] = { ...method, scopes: method.scopes ?? [], ...methodNames(spec.typeName, localName) };
  }
  return { typeName: spec.typeName, localName: spec.localName, summary: spec.summary, methods } as ServiceDesc<M>;
}

/** The names a method's local name gives it in a service (the platform's and the admin API's alike). */
export function methodNames(service: string, localName: string): { localName: string; name: string; path: string; service: string } {
  const name = localName[0]!.toUpperCase() + localName.slice(1);
  return { localName, name, path: `/${service}/${name}`, service };
}

/** The request type callers pass (fields at their default may be left out). */
export type MethodInput<M extends MethodSpec> = z.input<M["input"]>;
/** The request type a handler receives (every field present). */
export type MethodRequest<M extends MethodSpec> = z.output<M["input"]>;
/** The response type: every field present, as the client fills defaults. */
export type MethodOutput<M extends MethodSpec> = z.output<M["output"]>;
