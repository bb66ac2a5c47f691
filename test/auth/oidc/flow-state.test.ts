import { describe, expect, test } from "bun:test";
import { FLOW_TTL_MS, type FlowState, FlowStates } from "../../../src/auth/oidc/flow-state.ts";
import { AppError } from "../../../src/contract/errors.ts";

const SECRET = "a-signing-secret-of-enough-length";
const fields = { state: "st-1", nonce: "n-1", verifier: "v".repeat(43) };

/** A store on a hand-driven clock. */
function store(secret = SECRET) {
  let t = 1_000_000;
  const flows = new FlowStates(secret, () => t);
  return {
    flows,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

describe("flow state cookie", () => {
  test("seal → open round-trips and expires after 10 minutes", () => {
    const { flows, advance } = store();
    const flow = flows.create(fields);
    expect(flow.exp).toBe(1_000_000 + FLOW_TTL_MS);
    const sealed = flows.seal(flow);
    expect(flows.open(sealed)).toEqual(flow);
    advance(FLOW_TTL_MS - 1);
    expect(flows.open(sealed)).toEqual(flow);
    advance(1);
    expect(flows.open(sealed)).toBeNull();
  });

  test("an altered payload, a MAC from another secret, or junk does not open", () => {
    const { flows } = store();
    const sealed = flows.seal(flows.create(fields));
    const [body, mac] = sealed.split(".") as [string, string];
    const evil: FlowState = { ...flows.create(fields), state: "attacker-state", exp: Number.MAX_SAFE_INTEGER };
    expect(flows.open(`${Buffer.from(JSON.stringify(evil)).toString("base64url")}.${mac}`)).toBeNull();
    expect(flows.open(store("another-secret-of-enough-length").flows.seal(flows.create(fields)))).toBeNull();
    expect(flows.open(`${body}.${mac}.extra`)).toBeNull();
    for (const junk of [undefined, "", ".", body, `${body}.`, "x".repeat(5000)]) expect(flows.open(junk)).toBeNull();
    // A validly signed value that isn't a flow (e.g. missing the verifier) is refused too.
    const partial = flows.seal({ state: "s", nonce: "n", exp: Number.MAX_SAFE_INTEGER } as FlowState);
    expect(flows.open(partial)).toBeNull();
  });

  test("take: the state must match the callback's, and works once", () => {
    const { flows, advance } = store();
    const sealed = flows.seal(flows.create(fields));
    expect(codeOf(() => flows.take(sealed, "other-state"))).toBe("invalid_state");
    expect(codeOf(() => flows.take(sealed, null))).toBe("invalid_state");
    expect(flows.take(sealed, "st-1").verifier).toBe(fields.verifier);
    expect(codeOf(() => flows.take(sealed, "st-1"))).toBe("invalid_state");
    // Once its cookie has expired the consumed entry may go; the cookie is refused anyway.
    advance(FLOW_TTL_MS);
    expect(codeOf(() => flows.take(flows.seal(flows.create({ ...fields, state: "st-2" })), "st-2"))).toBeUndefined();
    expect(codeOf(() => flows.take(sealed, "st-1"))).toBe("invalid_state");
  });
});
