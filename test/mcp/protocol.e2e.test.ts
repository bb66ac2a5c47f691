import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN } from "../cli/run-cli.ts";
import { useLongTimeout } from "../setup.ts";

useLongTimeout();

/** The server as a raw process: lines written to its stdin, the JSON lines it answers read off stdout. */
function rawServer() {
  const p = Bun.spawn(["bun", MAIN, "mcp"], {
    cwd: mkdtempSync(join(tmpdir(), "rq-mcp-raw-")),
    env: { PATH: process.env.PATH!, ACADEMIC_PROVIDERS: "none", DATABASE_PATH: "./none.db" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const waiting: (() => void)[] = [];
  void (async () => {
    let buf = "";
    for await (const chunk of p.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        for (const w of waiting.splice(0)) w();
      }
    }
  })();
  let read = 0;
  return {
    p,
    send(line: string) {
      p.stdin.write(`${line}\n`);
      p.stdin.flush();
    },
    /** The next line the server writes, parsed: every line on stdout must be JSON. */
    async next(): Promise<Record<string, unknown>> {
      while (read >= lines.length) await new Promise<void>((r) => waiting.push(r));
      return JSON.parse(lines[read++]!) as Record<string, unknown>;
    },
  };
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("mcp: the protocol on stdio", () => {
  test("a malformed message gets a protocol error and the server keeps serving; closing stdin ends it with 0", async () => {
    const s = rawServer();
    s.send(JSON.stringify(INIT));
    expect(await s.next()).toMatchObject({ id: 1, result: { serverInfo: { name: "research-query" } } });
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));

    s.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"'); // cut off
    expect(await s.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    s.send(JSON.stringify({ id: 3, method: "tools/list" })); // no jsonrpc member
    expect(await s.next()).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32600 } });
    s.send("[1, 2, 3]");
    expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "no/such/method" }));
    expect(await s.next()).toMatchObject({ id: 4, error: { code: -32601 } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { arguments: {} } })); // no name
    expect(await s.next()).toMatchObject({ id: 5, error: { code: expect.any(Number) } });

    s.send(JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/list" }));
    const listed = await s.next();
    expect(listed).toMatchObject({ id: 6 });
    expect((listed.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(["research", "extract"]);

    s.p.stdin.end();
    expect(await s.p.exited).toBe(0);
    expect(await new Response(s.p.stderr).text()).toContain("mcp_protocol_error");
  });

  test("--help names the tools, both modes and RQ_API_KEY; a bad --server is a usage error before anything runs", async () => {
    const help = Bun.spawnSync(["bun", MAIN, "mcp", "--help"], { env: { PATH: process.env.PATH! } });
    const out = help.stdout.toString();
    expect(help.exitCode).toBe(0);
    for (const w of ["research {question}", "extract {url}", "--server URL", "RQ_API_KEY", "Local mode"])
      expect(out).toContain(w);
    for (const bad of ["not a url", "ftp://example.org"]) {
      const r = Bun.spawnSync(["bun", MAIN, "mcp", "--server", bad], {
        env: { PATH: process.env.PATH! },
        stdin: "ignore",
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.toString()).toContain("--server must be");
      expect(r.stdout.toString()).toBe("");
    }
  });
});
