import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "../cli/run-cli.ts";

const scratch = () => mkdtempSync(join(tmpdir(), "rq-config-"));

describe("configuration errors, through the CLI as a process", () => {
  test("a bad value names the allowed values, never the schema's words or its regex", async () => {
    for (const [k, v, words] of [
      ["LOCAL_SEARCH", "yes", "expected one of auto, off, only"],
      ["LOG_LEVEL", "loud", "expected one of debug, info, warn, error, silent"],
      [
        "ACADEMIC_PROVIDERS",
        "openalex,google",
        'expected none, or a comma list of openalex, arxiv, crossref, semantic_scholar ("google" is not one of them)',
      ],
      ["SEARXNG_URL", "ftp://x", "expected an http:// or https:// address"],
      ["VERIFY_BASE_URL", "localhost:11434/v1", "expected an http:// or https:// address"],
      ["PORT", "eighty", "expected a whole number from 0 to 65535"],
      ["SESSION_TTL_DAYS", "0", "expected a number above 0 and at most 365"],
      ["FETCH_ALLOW_PRIVATE", "yes", "expected true or false"],
      ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "expected an http:// or https:// address"],
      ["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "expected one of http/protobuf, http/json"],
      ["OTEL_EXPORTER_OTLP_HEADERS", "api-key", "expected a comma list of key=value"],
      ["OTEL_TRACES_SAMPLER", "sometimes", "expected one of always_on, always_off, traceidratio"],
      ["OTEL_TRACES_SAMPLER_ARG", "2", "expected a number"],
    ] as const) {
      const { err, code } = await cli(["serve"], { [k]: v });
      expect(code, k).toBe(1);
      expect(err, k).toContain(`invalid ${k}="${v}": ${words}`);
      expect(err, k).not.toMatch(/Expected union value|Expected string to match|\^\(|\$'/);
    }
  });

  test("every bad variable is reported at once, from the environment and .env together", async () => {
    const dir = scratch();
    writeFileSync(join(dir, ".env"), "LOG_LEVEL=loud\n");
    const { err, code } = await cli(
      ["corpus", "list"],
      { LOCAL_SEARCH: "yes", DEFAULT_PLAN: "gold", DATABASE_PATH: join(dir, "db.sqlite") },
      undefined,
      dir,
    );
    expect(code).toBe(1);
    expect(err).toContain("3 configuration variables are invalid:");
    for (const k of ["LOCAL_SEARCH", "DEFAULT_PLAN", "LOG_LEVEL"]) expect(err).toContain(`invalid ${k}=`);
  });

  test("a name one typo away from ours is warned about, and the command still runs", async () => {
    const dir = scratch();
    writeFileSync(join(dir, ".env"), "SEARXNG_ULR=http://127.0.0.1:9\n");
    const { err, code } = await cli(
      ["corpus", "list"],
      { PLAN_RUNS_FRE: "5", DATABASE_PATH: join(dir, "db.sqlite") },
      undefined,
      dir,
    );
    expect(code).toBe(0);
    expect(err).toContain("unknown variable SEARXNG_ULR in .env; did you mean SEARXNG_URL?");
    expect(err).toContain("unknown variable PLAN_RUNS_FRE; did you mean PLAN_RUNS_FREE?");
  });

  test("unrelated variables of the environment, and the CLI's own, are not warned about", async () => {
    const dir = scratch();
    const { err, code } = await cli(
      ["corpus", "list"],
      {
        HOSTNAME: "box",
        HOME: "/tmp",
        LC_ALL: "C",
        HTTP_PROXY: "http://proxy:3128",
        DATABASE_USER: "x",
        RQ_API_KEY: "rq-x",
        RQ_PASSWORD: "long enough pw",
        DATABASE_PATH: join(dir, "db.sqlite"),
      },
      undefined,
      dir,
    );
    expect(code).toBe(0);
    expect(err).not.toContain("unknown variable");
  });
});
