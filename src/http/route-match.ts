import type { Declaration } from "./route.ts";

/**
 * Finds the declaration a request is for, before Elysia routes it: the server's gate asks it
 * how to treat the request (its credential, its body), never the path itself. A segment
 * matches as Elysia's router does: any run of characters without "/".
 */
export interface RouteMatcher<R extends Declaration> {
  /** The route of this method and path, or undefined (Elysia then answers 404). */
  match(method: string, path: string): R | undefined;
  /** The declarations of a path whatever the method (an OPTIONS or a wrong method). */
  atPath(path: string): R[];
}

export function routeMatcher<R extends Declaration>(list: readonly R[]): RouteMatcher<R> {
  const exact = new Map<string, R[]>();
  const templated = new Map<string, { re: RegExp; routes: R[] }>();
  for (const r of list) {
    if (!r.path.includes(":")) {
      exact.set(r.path, [...(exact.get(r.path) ?? []), r]);
      continue;
    }
    const source = `^${r.path.replace(/:\w+/g, "[^/]+")}$`;
    const t = templated.get(source) ?? { re: new RegExp(source), routes: [] };
    t.routes.push(r);
    templated.set(source, t);
  }
  const patterns = [...templated.values()];
  const atPath = (path: string): R[] => exact.get(path) ?? patterns.find((t) => t.re.test(path))?.routes ?? [];
  // HEAD is answered as GET (Elysia does so): the same route, the same rules.
  return {
    atPath,
    match: (method, path) => {
      const m = method === "HEAD" ? "GET" : method;
      return atPath(path).find((r) => r.method === m);
    },
  };
}
