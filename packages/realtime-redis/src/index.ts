/**
 * @playfield/realtime-redis: the Redis adapters that let several
 * Playfield server processes behave as one: the realtime pub/sub (events
 * reach a user's connections on any process) and the presence directory
 * (who is online anywhere; a dead process's users turn offline).
 * @module
 */
export { connectRedisRealtime, type RedisRealtime, type RedisRealtimeOptions } from "./connect-redis-realtime.js";
