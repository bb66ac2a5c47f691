import { writeFileSync } from "node:fs";

export interface WrkResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

const toMs = (v: string) => {
  const n = parseFloat(v);
  return v.endsWith("us") ? n / 1000 : v.endsWith("ms") ? n : v.endsWith("s") ? n * 1000 : n;
};

/** Runs wrk against a POST endpoint with a JSON body and headers; parses rps and latency percentiles. */
export async function wrk(
  url: string,
  headers: Record<string, string>,
  body: string,
  o: { threads: number; conns: number; seconds: number; lua?: string } = { threads: 2, conns: 64, seconds: 5 },
): Promise<WrkResult> {
  const script = `/tmp/rq-wrk-${crypto.randomUUID()}.lua`;
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\n${Object.entries(headers)
      .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
      .join("\n")}\n${o.lua ?? ""}\n`,
  );
  const p = Bun.spawn(["wrk", `-t${o.threads}`, `-c${o.conns}`, `-d${o.seconds}s`, "--latency", "-s", script, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return {
    rps: parseFloat(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? "0"),
    p50ms: toMs(/\s50%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "0"),
    p99ms: toMs(/\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "0"),
    non2xx: parseInt(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? "0", 10),
  };
}
