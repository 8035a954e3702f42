/*
 * A small failover proxy in front of the two-process suite's
 * `playfield-server` processes, as a load balancer without affinity would
 * be: each new connection goes to the first process that accepts it.
 */
import { once } from "node:events";
import { createServer, connect, type Socket } from "node:net";

export interface FailoverProxy {
  url: string;
  close(): Promise<void>;
}

/** A TCP proxy on a free port: each connection goes to the first of `targets` that accepts it. */
export async function failoverProxy(targets: string[]): Promise<FailoverProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.pause();
    const attempt = (i: number) => {
      if (i >= targets.length) {
        client.destroy();
        return;
      }
      const { hostname, port } = new URL(targets[i]!);
      const upstream = connect(Number(port), hostname);
      let connected = false;
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.once("error", () => {
        if (!connected) attempt(i + 1);
        else client.destroy();
      });
      upstream.once("connect", () => {
        connected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
        upstream.on("close", () => client.destroy());
        client.on("close", () => upstream.destroy());
      });
    };
    attempt(0);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
