/*
 * The caller's address, as the sign-in throttles key on it. Behind a load
 * balancer or reverse proxy every connection comes from the proxy, so its
 * address would put every caller in one throttle: 50 failed sign-ins of
 * anyone would refuse everyone. When the connection comes from a proxy the
 * server is told to trust, the address is read from `X-Forwarded-For`
 * instead: the rightmost entry that is not itself a trusted proxy (entries
 * to its left were written by the client and may be made up). An entry
 * that is not spelled as an IP address was not written by a proxy (a proxy
 * passed the client's header on without appending), so it is not believed
 * either: the throttle then keys on the nearest trusted hop, and a client
 * cannot choose a key of any length or shape.
 */

/** An IPv4 or IPv6 address as proxies write them, with an optional IPv6 zone; no longer than 64 characters. */
const ADDRESS = /^(?=.{2,64}$)[0-9a-f:.]+(%[0-9a-z_.-]+)?$/i;

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) as `10.0.0.1`, so one address has one spelling. */
function normalize(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed;
}

/**
 * The client's address for a call whose connection came from `socketAddress`.
 *
 * @example
 * clientAddressOf("10.0.0.2", "203.0.113.7, 10.0.0.9", new Set(["10.0.0.2", "10.0.0.9"])) // "203.0.113.7"
 */
export function clientAddressOf(socketAddress: string | null, forwardedFor: string | null, trustedProxies: ReadonlySet<string>): string | null {
  if (socketAddress === null || trustedProxies.size === 0) return socketAddress;
  const socket = normalize(socketAddress);
  if (!trustedProxies.has(socket) || !forwardedFor) return socket;
  const hops = forwardedFor.split(",").map(normalize).filter((hop) => hop !== "");
  let nearest = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!trustedProxies.has(hop)) return ADDRESS.test(hop) ? hop : nearest;
    nearest = hop;
  }
  // Every hop is a trusted proxy: the leftmost is the closest thing to a client there is.
  return nearest;
}

/** The trusted proxies of the configuration, spelled as `clientAddressOf` compares them. */
export function trustedProxySet(addresses: readonly string[]): ReadonlySet<string> {
  return new Set(addresses.map(normalize));
}
