/**
 * Structured JSON log lines, every level on one stream: stdout for `serve` (README "Deployment"),
 * stderr for the commands whose stdout is data (`mcp`, `ask`; `toStderr`), so a collector never
 * has to join two streams to read one process's log in order
 * (docs/decisions/0149-every-log-line-on-one-stream.md). Never pass keys, passwords, cookies or
 * query text.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether lines at this level are written: lets hot paths skip building their fields. */
  enabled(level: Exclude<LogLevel, "silent">): boolean;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export function createLogger(level: LogLevel, write: (line: string) => void = toStdout): Logger {
  const min = LEVELS[level];
  const log = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    enabled: (lvl) => LEVELS[lvl] >= min,
  };
}

function toStdout(line: string): void {
  process.stdout.write(line + "\n");
}

/** The log of a command whose stdout is its answer or a protocol. */
export function toStderr(line: string): void {
  process.stderr.write(line + "\n");
}
