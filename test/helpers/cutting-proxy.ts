import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of a test server, as a load balancer or a flaky network would be:
 * it passes bytes both ways and `cut()` drops every open connection mid-flight.
 */
export interface CuttingProxy {
  url: string;
  /** Connections opened so far. */
  connections: number;
  /** Connections open now (each counted once, client side). */
  readonly open: number;
  cut(): void;
  close(): Promise<void>;
}

export async function cuttingProxy(target: string): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    proxy.connections++;
    clients.add(client);
    client.on("close", () => clients.delete(client));
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address() as { port: number };
  const proxy: CuttingProxy = {
    url: `http://127.0.0.1:${address.port}`,
    connections: 0,
    get open() {
      return clients.size;
    },
    cut() {
      for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        proxy.cut();
        server.close(() => r());
      }),
  };
  return proxy;
}
