// Helpers shared by the benchmarks that start processes and read their times.

export async function spawnJson<T>(
  args: string[],
  env?: Record<string, string | undefined>,
): Promise<{ info: T; kill: () => void }> {
  const p = Bun.spawn(args, { env, stdout: "pipe", stderr: "inherit" });
  const reader = p.stdout.getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
  }
  return { info: JSON.parse(buf.split("\n")[0]!) as T, kill: () => p.kill() };
}

export const pct = (xs: number[], q: number) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN;
};

/** CPU time (user + system, ms) a process has used, from /proc. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = (await Bun.file(`/proc/${pid}/stat`).text()).split(") ")[1]!.split(" ");
  return ((Number(stat[11]) + Number(stat[12])) * 1000) / 100;
}

/** What the held-streams server answers at start (bench-server.ts). */
export interface HeldServer {
  info: { port: number; key: string; pid: number };
  kill: () => void;
}

/**
 * The held-streams setup (sections 3, 8 and 11): the upstream fixtures in their own process
 * (held-fixtures.ts, the writer holding `holdMs`) and a bench server whose engine reads them;
 * BENCH_PROFILE=dir adds a CPU profile of the server.
 */
export async function startHeldServer(
  holdMs: string,
  serverArgs: string[],
  serverEnv: Record<string, string> = {},
): Promise<HeldServer> {
  const fx = await spawnJson<{ openalex: string; openaiBase: string }>([
    "bun",
    `${import.meta.dir}/held-fixtures.ts`,
    holdMs,
  ]);
  const srv = await spawnJson<HeldServer["info"]>(
    [
      "bun",
      ...(process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      `${import.meta.dir}/bench-server.ts`,
      ...serverArgs,
    ],
    {
      ...process.env,
      SEARXNG_URL: "",
      ACADEMIC_PROVIDERS: "openalex",
      OPENALEX_URL: fx.info.openalex,
      OPENAI_BASE_URL: fx.info.openaiBase,
      FETCH_ALLOW_PRIVATE: "true",
      ...serverEnv,
    },
  );
  return {
    info: srv.info,
    kill: () => {
      srv.kill();
      fx.kill();
    },
  };
}
