import pino, { type DestinationStream, type Logger as PinoLogger } from "pino";
import { LOG_LEVELS, type LogLevel } from "../observe/logger.js";

/**
 * A pino logger writing JSON lines (stdout unless `destination` says
 * otherwise) at `level`: the `level` field is the level's name, `time` an
 * ISO 8601 time. Pass it as a server's `log`; docs/operators.md, "Logs",
 * describes the lines.
 *
 * @example
 * const server = createServer({ storage, log: createLogger("debug") });
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): PinoLogger {
  if (!LOG_LEVELS.includes(level)) throw new TypeError(`log level: one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
  const options = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
