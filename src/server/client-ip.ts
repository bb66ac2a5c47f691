// Elysia's context has no server when it is driven through .handle(), so the outer
// fetch records each request's peer address here for the login throttle.
const ips = new WeakMap<Request, string>();

export function setClientIp(request: Request, ip: string | undefined): void {
  if (ip) ips.set(request, ip);
}

export function clientIp(request: Request): string {
  return ips.get(request) ?? "unknown";
}
