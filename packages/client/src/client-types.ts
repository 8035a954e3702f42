import type { MethodInput, MethodOutput, MethodSpec, ServiceDesc, Services } from "@playfield/core";
import type { CallOptions } from "./call-options.js";
import type { ClientAuth } from "./token-session.js";

/**
 * One API method on the client: request in (fields at their default may be
 * left out, and the whole request when none is required), full answer out.
 */
export type MethodCall<M extends MethodSpec> = {} extends MethodInput<M>
  ? (request?: MethodInput<M>, options?: CallOptions) => Promise<MethodOutput<M>>
  : (request: MethodInput<M>, options?: CallOptions) => Promise<MethodOutput<M>>;

/** Every method of one service, by local name: `client.identity.getMe`. */
export type ServiceClient<S extends ServiceDesc> = {
  readonly [K in keyof S["methods"]]: MethodCall<S["methods"][K]>;
};

/** The client: one property per service (`identity`, `social`, …), and `auth`. */
export type PlayfieldClient = {
  readonly [K in keyof Services]: ServiceClient<Services[K]>;
} & {
  /** The tokens the client holds. */
  readonly auth: ClientAuth;
};
