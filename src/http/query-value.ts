import { AppError } from "../contract/errors.ts";

/**
 * A query parameter given once, or undefined; given twice, 400 invalid_request (which one was
 * meant is unknowable). Every route reads its query (`?from=`, `?owner=`) through this.
 */
export function queryValue(request: Request, name: string): string | undefined {
  const all = new URL(request.url).searchParams.getAll(name);
  if (all.length > 1) throw new AppError("invalid_request", `give ${name} once`);
  return all[0];
}
