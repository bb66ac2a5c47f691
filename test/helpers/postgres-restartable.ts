import { SQL } from "bun";
import { asRoot, binDir, freePort, initDataDir, ready } from "./postgres.ts";

/** A PostgreSQL server of one test's own, which it stops and starts again on the same port. */
export interface RestartablePostgres {
  /** A new, empty database on it: its postgres:// URL. */
  database(): Promise<string>;
  /** A fast shutdown (SIGINT: sessions terminated, as `pg_ctl stop -m fast`); resolves once the server has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it takes connections. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The shared server (postgres.ts) serves every test file of the process, so an outage is
 * staged on a server of the test's own. Its keeper shell takes `stop`/`start` lines on stdin
 * and answers each when done; the end of stdin (the test process gone, however) stops the
 * server and removes its files, as the shared server's keeper does.
 */
export async function restartablePostgres(): Promise<RestartablePostgres> {
  const { dir } = initDataDir();
  const port = freePort();
  const script = `trap : TERM INT HUP
    bin=$0 dir=$1 port=$2
    up() { "$bin/postgres" -D "$dir/data" -k "$dir" -h 127.0.0.1 -p "$port" -F -c full_page_writes=off \\
      -c synchronous_commit=off >>"$dir/log" 2>&1 & pid=$!; }
    up
    while read cmd; do
      case "$cmd" in
        stop) kill -INT $pid; wait $pid; echo stopped ;;
        start) up; echo started ;;
      esac
    done
    kill -QUIT $pid 2>/dev/null; wait $pid; rm -rf "$dir"`;
  const args = ["sh", "-c", script, binDir!, dir, String(port)];
  const keeper = Bun.spawn(asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args, {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  keeper.unref();
  const lines = keeper.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  /** Sends one command and waits for its answer line (commands are awaited one at a time). */
  const command = async (cmd: "stop" | "start", ack: string) => {
    keeper.stdin.write(`${cmd}\n`);
    keeper.stdin.flush();
    while (!buffered.includes(`${ack}\n`)) {
      const { done, value } = await lines.read();
      if (done) throw new Error(`the PostgreSQL keeper ended before "${ack}"`);
      buffered += value;
    }
    buffered = buffered.slice(buffered.indexOf(`${ack}\n`) + ack.length + 1);
  };
  await ready(port, dir);
  const admin = () => new SQL(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1 });
  return {
    async database() {
      const sql = admin();
      const name = `rq_${crypto.randomUUID().replaceAll("-", "")}`;
      await sql.unsafe(`CREATE DATABASE ${name}`);
      await sql.close();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: () => command("stop", "stopped"),
    async start() {
      await command("start", "started");
      await ready(port, dir);
    },
    async close() {
      keeper.stdin.end();
      await keeper.exited;
    },
  };
}
