import { createHandlers } from "../../src/server/app.ts";
import { type Send, startTestServer, type TestServer, type TestServerOptions } from "./server.ts";

/** A test server whose `fetch` asks the app's handler in this process. */
export interface InProcessServer extends TestServer {
  /** The app's own `fetch` (src/server/app.ts's createHandlers): no socket, so no client address and no connection. */
  fetch: Send;
}

/**
 * The server of startTestServer, asked without the network: for tests of what a route answers
 * (the Console, accounts, keys, collections), about ten times cheaper a request than over
 * loopback. What the socket carries (client addresses, streams cut mid-way, idle and body
 * timeouts, connection reuse, browsers) needs startTestServer and its URL.
 */
export function startInProcess(o: TestServerOptions = {}): InProcessServer {
  const srv = startTestServer(o);
  const handlers = createHandlers(srv.deps);
  const send: Send = (url, init) => {
    const request = new Request(url, init);
    // Every HTTP/1.1 request carries Host (the cross-site check compares Origin with it); fetch adds it on the wire.
    if (!request.headers.has("host")) request.headers.set("host", new URL(url).host);
    return handlers.fetch(request);
  };
  return Object.assign(srv, { fetch: send });
}
