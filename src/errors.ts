// Temporary: the research engine's imports move to contract/errors.ts with the rest.
export * from "./contract/errors.ts";
