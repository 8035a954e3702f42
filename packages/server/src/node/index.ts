/**
 * `@playfield/server/node`: the server on Node's http and ws.
 * @module
 */
export { listen, startServer, PublicUrlRequiredError, type ListenOptions, type AdminListenOptions, type StartServerOptions, type StartedServer } from "./start-server.js";
export { listenAdmin, AdminPortInUseError, type AdminListener } from "./admin-listener.js";
export { createPrometheusMetrics, type PrometheusMetrics, type PrometheusMetricsOptions } from "./prometheus-metrics.js";
export { createLogger } from "./create-logger.js";
export { SHUTDOWN_TIMEOUT_MS } from "./drain-server.js";
export { nodeHttpAdapter, type NodeApp } from "./node-http-adapter.js";
export { websocketAdapter, type WebSocketAdapter, type WebSocketAdapterOptions } from "./websocket-adapter.js";
