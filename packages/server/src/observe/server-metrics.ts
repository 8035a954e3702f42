/**
 * What a server reports as it works, for metrics: the metrics port. A server
 * without one measures nothing and spends nothing on it. The Prometheus
 * implementation is `createPrometheusMetrics` (`@playfield/server/node`);
 * docs/operators.md lists its series.
 */
export interface ServerMetrics {
  /** The recorder of one API method, asked once per method (the server keeps it): no lookup per call. */
  method(service: string, method: string): MethodMetrics;
  /** A realtime connection opened (+1) or closed (-1). */
  realtimeConnections(delta: 1 | -1): void;
  /** A realtime frame received from a client (`in`) or sent to one (`out`). */
  realtimeFrame(direction: "in" | "out"): void;
  /** A storage transaction ended: how long it took in seconds (its runs again after conflicts included), and whether it committed. */
  transaction(seconds: number, committed: boolean): void;
}

/** The metrics of one API method. */
export interface MethodMetrics {
  /** A call answered with `code` ("ok" or the error's wire code) after `seconds`. */
  call(code: string, seconds: number): void;
}
