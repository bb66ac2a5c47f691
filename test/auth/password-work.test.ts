import { describe, expect, test } from "bun:test";
import { PasswordWork } from "../../src/auth/password-work.ts";

// The order is the point here; how long a sign-in takes during a flood is measured by
// test/bench/signup-flood.ts (bun run bench 6.), and the refusal beyond the queue by signup-limits.e2e.test.ts.
describe("the password work queue", () => {
  test("a sign-in's check runs before sign-ups queued ahead of it", async () => {
    const work = new PasswordWork(1, 10);
    const hash = await Bun.password.hash("x-password", { algorithm: "argon2id" });
    const order: string[] = [];
    const jobs = [1, 2, 3].map((i) => work.hash(`pw-${i}`).then(() => order.push(`signup ${i}`)));
    jobs.push(work.verify("x-password", hash).then((ok) => order.push(`login ${ok}`)));
    await Promise.all(jobs);
    expect(order).toEqual(["signup 1", "login true", "signup 2", "signup 3"]);
  });

  test("sign-ups beyond the queue are refused at once", () => {
    const work = new PasswordWork(1, 2);
    const running = [work.hash("a-password"), work.hash("b-password"), work.hash("c-password")];
    expect(() => work.hash("d-password")).toThrow("busy");
    return Promise.all(running);
  });
});
