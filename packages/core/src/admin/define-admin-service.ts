import type { z } from "zod";
import { methodNames } from "../api/define-service.js";
import type { AnyMessage } from "../wire/fields.js";
import type { OperatorRole } from "./operator-role.js";

/** One admin method, as plain data: the only place it is described. */
export interface AdminMethodSpec<I extends AnyMessage = AnyMessage, O extends AnyMessage = AnyMessage> {
  input: I;
  output: O;
  /**
   * The roles that may call it. Empty: no operator token needed (sign-in
   * alone); anything a player's token reaches is never here.
   */
  roles: readonly OperatorRole[];
  /** Whether a successful call writes an audit entry (every method that changes something). */
  audited: boolean;
  summary: string;
}

/** An admin method with its wire name and service filled in. */
export interface AdminMethodDesc<I extends AnyMessage = AnyMessage, O extends AnyMessage = AnyMessage> extends AdminMethodSpec<I, O> {
  /** camelCase name used in code: `searchPlayers`. */
  localName: string;
  /** PascalCase name on the wire: `SearchPlayers`. */
  name: string;
  /** `/svc.admin.v1.PlayerAdminService/SearchPlayers` */
  path: string;
  service: string;
}

export interface AdminServiceDesc<M extends Record<string, AdminMethodSpec> = Record<string, AdminMethodSpec>> {
  /** Fully qualified name: `svc.admin.v1.OperatorService`. */
  typeName: string;
  /** The admin client's property for it: `operators`. */
  localName: string;
  summary: string;
  methods: { [K in keyof M]: AdminMethodDesc<M[K]["input"], M[K]["output"]> };
}

/**
 * Defines an admin service from its methods: adds the derived names and
 * paths, as `defineService` does for the platform API.
 *
 * @example
 * export const AuditService = defineAdminService({
 *   typeName: "svc.admin.v1.AuditService", localName: "audit", summary: "The audit log.",
 *   methods: { listAuditLog: { input: ListAuditLogRequest, output: ListAuditLogResponse, roles: ["admin"], audited: false, summary: "…" } },
 * });
 */
export function defineAdminService<const M extends Record<string, AdminMethodSpec>>(spec: {
  typeName: string;
  localName: string;
  summary: string;
  methods: M;
}): AdminServiceDesc<M> {
  const methods = {} as Record<string, AdminMethodDesc>;
  for (const [localName, method] of Object.entries(spec.methods)) methods[localName] = { ...method, ...methodNames(spec.typeName, localName) };
  return { typeName: spec.typeName, localName: spec.localName, summary: spec.summary, methods } as AdminServiceDesc<M>;
}

/** The request type callers pass. */
export type AdminMethodInput<M extends AdminMethodSpec> = z.input<M["input"]>;
/** The request type a handler receives. */
export type AdminMethodRequest<M extends AdminMethodSpec> = z.output<M["input"]>;
/** The response type. */
export type AdminMethodOutput<M extends AdminMethodSpec> = z.output<M["output"]>;
