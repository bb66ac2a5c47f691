import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: every exchange of the wire
 * protocol ends with the server's ReadyForQuery ('Z'), so its count is the number of times a
 * client waited for the server. The first reply to an SSLRequest is one unframed byte.
 */
export interface RoundTripCounter {
  url: string;
  readonly roundTrips: number;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

export async function roundTripCounter(target: string): Promise<RoundTripCounter> {
  const u = new URL(target);
  const [host, port] = [u.hostname, Number(u.port)];
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    let unframed = 0;
    let first = true;
    client.on("data", (b: Buffer) => {
      if (first && b.length >= 8 && b.readInt32BE(4) === SSL_REQUEST) unframed = 1;
      first = false;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    let pending = Buffer.alloc(0);
    upstream.on("data", (b: Buffer) => {
      pending = Buffer.concat([pending, b]);
      if (unframed && pending.length) {
        pending = pending.subarray(unframed);
        unframed = 0;
      }
      while (pending.length >= 5) {
        const len = pending.readInt32BE(1);
        if (pending.length < 1 + len) break;
        if (pending[0] === 0x5a) count++;
        pending = pending.subarray(1 + len);
      }
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  u.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: u.toString(),
    get roundTrips() {
      return count;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
