import type { DatastoreHistoryRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { readOldValues, type EntryAddress } from "./history.js";

/*
 * The operator interface of the datastore: what a support desk does and the
 * public API does not. Reached in process as `server.operator.datastore`.
 */

/** Operator actions on game save data. */
export interface DatastoreOperator {
  /**
   * The old values of one entry still within the retention period, newest
   * first: how an operator restores a value a game overwrote or deleted.
   *
   * @example
   * const old = await server.operator.datastore.oldValues({ experienceId, scope: "user", userId, key: "save" });
   */
  oldValues(address: EntryAddress): Promise<DatastoreHistoryRow[]>;
}

export function createDatastoreOperator(deps: ServerDeps): DatastoreOperator {
  return {
    oldValues: (address) => readOldValues(deps.storage, deps.clock.now(), deps.config.datastore.retentionMs, address),
  };
}
