import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";

/**
 * A real PostgreSQL server for the tests: one per `bun test` process (test files share
 * modules, so every file gets the same one), started on first use on a free loopback
 * port, a fresh database per caller, stopped when the process exits.
 *
 * initdb and postgres refuse to run as root, so as root they run as the `postgres` user
 * (created when missing) in a temporary directory it owns. Without the binaries the
 * PostgreSQL tests are skipped on a developer's machine but fail in CI (CI=true): a CI
 * that cannot start the server must not pass by running fewer tests.
 */

/** The server binaries: Debian's versioned directory, else pg_config's, else none. */
function findBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "postgres")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  const which = Bun.which("pg_config");
  if (which) {
    const out = Bun.spawnSync([which, "--bindir"]).stdout.toString().trim();
    if (existsSync(join(out, "postgres"))) return out;
  }
  return null;
}

export const binDir = findBinDir();

/**
 * Whether the PostgreSQL tests run: always in CI (where a missing server is a failure), else when
 * installed; never in the fast tier (`bun run test:fast` sets RQ_TEST_TIER=fast), which starts no server.
 */
export const postgresTests = process.env.RQ_TEST_TIER !== "fast" && (binDir !== null || process.env.CI === "true");

export const asRoot = process.getuid?.() === 0;

export function run(args: string[], what: string): void {
  const cmd = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${what} failed (${r.exitCode}): ${r.stderr.toString()}${r.stdout.toString()}`);
}

export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

interface Server {
  /** Superuser connection to the `postgres` database, for CREATE DATABASE. */
  admin: SQL;
  port: number;
}

let started: Promise<Server> | undefined;
/** The shell that holds the server; its stdin is the pipe whose end stops it. */
let keeper: ReturnType<typeof Bun.spawn> | undefined;

/** Waits until the server takes connections (pg_isready), or fails with its log. */
export async function ready(port: number, dir: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const probe = Bun.spawnSync([join(binDir!, "pg_isready"), "-q", "-h", "127.0.0.1", "-p", String(port)]);
    if (probe.exitCode === 0) return;
    await Bun.sleep(50);
  }
  const log = await Bun.file(join(dir, "log"))
    .text()
    .catch(() => "");
  throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}: ${log}`);
}

/** A new cluster in a temporary directory the server's user owns: its directory and data directory. */
export function initDataDir(): { dir: string; data: string } {
  if (!binDir) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres, no pg_config)");
  if (asRoot && Bun.spawnSync(["id", "-u", "postgres"]).exitCode !== 0) {
    const r = Bun.spawnSync(["useradd", "--system", "--no-create-home", "postgres"], { stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`useradd postgres failed: ${r.stderr.toString()}`);
  }
  const dir = mkdtempSync(join(tmpdir(), "rq-pg-"));
  if (asRoot) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, "data");
  run([join(binDir, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"], "initdb");
  return { dir, data };
}

async function start(): Promise<Server> {
  const { dir } = initDataDir();
  const port = freePort();
  // The server lives as long as this process's end of a pipe: when the test process exits,
  // however it exits (kill -9 included), `cat` sees the end, and the server and its files go.
  // bun test sends SIGTERM to what a timed-out test spawned: the keeper outlives that (trap).
  // Durability is not under test: no fsync, so creating a database per test stays cheap.
  const script = `trap : TERM INT HUP
    "$0/postgres" -D "$1/data" -k "$1" -h 127.0.0.1 -p "$2" -F -c full_page_writes=off \\
      -c synchronous_commit=off -c max_connections=300 >"$1/log" 2>&1 & pid=$!
    cat >/dev/null
    kill -QUIT $pid; wait $pid; rm -rf "$1"`;
  const args = ["sh", "-c", script, binDir!, dir, String(port)];
  keeper = Bun.spawn(asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args, {
    stdin: "pipe",
    stdout: "ignore",
    stderr: "inherit",
  });
  keeper.unref();
  await ready(port, dir);
  return { admin: new SQL(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 2 }), port };
}

/** A new, empty database on the shared server: its postgres:// URL. */
export async function freshDatabase(): Promise<string> {
  started ??= start();
  const { admin, port } = await started;
  const name = `rq_${crypto.randomUUID().replaceAll("-", "")}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  return `postgres://postgres@127.0.0.1:${port}/${name}`;
}
