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
