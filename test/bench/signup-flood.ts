// `bun run bench 6.`: how long one sign-in takes alone and during a
// flood of 150 simultaneous sign-ups — from one client, and from 150 clients behind a trusted
// proxy (X-Forwarded-For). Prints a Markdown table; numbers vary with the machine, so nothing
// here is asserted (before the fix: 155 ms alone, 14 s during the flood; docs/decisions/0045-who-may-sign-up.md).
import { freshEmail, loginFrom, PASSWORD, signupFrom } from "../auth/auth-calls.ts";
import { scriptedEngine } from "../helpers/scripted-engine.ts";
import { startTestServer } from "../helpers/server.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FLOOD = 150;

async function timedLogin(base: string, email: string): Promise<[number, number]> {
  const t0 = performance.now();
  const a = await loginFrom(base, email, PASSWORD, "198.51.100.2");
  return [performance.now() - t0, a.status];
}

async function round(manyClients: boolean) {
  const srv = startTestServer({ engine: scriptedEngine(), env: { TRUST_PROXY: "127.0.0.1", LOG_LEVEL: "silent" } });
  try {
    const user = freshEmail();
    await signupFrom(srv.url, user, "198.51.100.1");
    const [alone] = await timedLogin(srv.url, user);
    const t0 = performance.now();
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      signupFrom(srv.url, freshEmail("flood"), manyClients ? `10.0.${i}.1` : "203.0.113.1"),
    );
    await Bun.sleep(500); // the whole flood is queued (or refused) before the sign-in arrives
    const [during, status] = await timedLogin(srv.url, user);
    const answers = await Promise.all(flood);
    const floodMs = performance.now() - t0;
    const made = answers.filter((a) => a.status === 201).length;
    return { alone, during, status, made, floodMs };
  } finally {
    await srv.stop(100);
  }
}

const fmt = (ms: number) => `${Math.round(ms)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Section 6 of `bun run bench`: a Markdown table of sign-in latency alone and during the flood. */
export async function benchSignupFlood(): Promise<string> {
  const lines = [
    "| flood from | sign-in alone | sign-in during flood (median, max) | status | accounts made | flood done after |",
    "|---|---|---|---|---|---|",
  ];
  for (const many of [false, true]) {
    const rs = [];
    for (let i = 0; i < ROUNDS; i++) rs.push(await round(many));
    const during = rs.map((r) => r.during);
    lines.push(
      `| ${many ? `${FLOOD} clients` : "one client"} | ${fmt(median(rs.map((r) => r.alone)))} | ${fmt(median(during))}, ${fmt(Math.max(...during))} | ${[...new Set(rs.map((r) => r.status))].join("/")} | ${median(rs.map((r) => r.made))} of ${FLOOD} | ${fmt(median(rs.map((r) => r.floodMs)))} |`,
    );
  }
  lines.push("", `${ROUNDS} rounds each (ROUNDS=n to change).`);
  return lines.join("\n");
}
