import { chownSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asRoot, freePort, postgresTests } from "./postgres.ts";

/**
 * A real PgBouncer in transaction mode in front of the tests' PostgreSQL server, started on
 * first use and stopped when the test process exits (as that server is). Skipped on a
 * developer's machine without it, required in CI (.ci/run installs it).
 */
const bin = Bun.which("pgbouncer") ?? Bun.which("/usr/sbin/pgbouncer");

export const pgbouncerTests = postgresTests && (bin !== null || process.env.CI === "true");

let started: Promise<number> | undefined;

async function start(serverPort: number): Promise<number> {
  if (!bin) throw new Error("PgBouncer is not installed (apt-get install -y pgbouncer)");
  const dir = mkdtempSync(join(tmpdir(), "rq-pgb-"));
  const port = freePort();
  writeFileSync(join(dir, "users.txt"), '"postgres" ""\n');
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    `[databases]\n* = host=127.0.0.1 port=${serverPort}\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${port}\n` +
      `unix_socket_dir =\nauth_type = trust\nauth_file = ${join(dir, "users.txt")}\npool_mode = transaction\n` +
      "max_client_conn = 500\ndefault_pool_size = 8\n",
  );
  if (asRoot) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString());
    for (const f of ["", "users.txt", "pgbouncer.ini"]) chownSync(join(dir, f), uid, gid);
  }
  // It lives as long as this process's end of a pipe, like the PostgreSQL server (postgres.ts).
  const script = `trap : TERM INT HUP
    "$0" "$1/pgbouncer.ini" >"$1/log" 2>&1 & pid=$!
    cat >/dev/null
    kill $pid; wait $pid; rm -rf "$1"`;
  const args = ["sh", "-c", script, bin, dir];
  const keeper = Bun.spawn(asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args, {
    stdin: "pipe",
    stdout: "ignore",
    stderr: "inherit",
  });
  keeper.unref();
  for (let i = 0; i < 200; i++) {
    const up = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => {
        s.end();
        return true;
      },
      () => false,
    );
    if (up) return port;
    await Bun.sleep(50);
  }
  throw new Error(`PgBouncer did not start: ${await Bun.file(join(dir, "log")).text()}`);
}

/** The same database as `url` (a freshDatabase()), through the PgBouncer in transaction mode. */
export async function throughPgbouncer(url: string): Promise<string> {
  const u = new URL(url);
  started ??= start(Number(u.port));
  u.port = String(await started);
  return u.toString();
}
