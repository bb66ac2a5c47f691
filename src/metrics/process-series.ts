import { readdirSync, readFileSync } from "node:fs";
import { family, labelValue, sample } from "./exposition.ts";

/**
 * The standard `process_*` series (the names and units every Prometheus client library uses, so
 * existing dashboards and alerts read them), the service's uptime and its build
 * (docs/decisions/0151-metrics-of-the-process-and-its-threads.md). What Linux's /proc gives
 * (virtual memory, open and allowed descriptors) is left out where there is no /proc.
 */

/** Seconds since the epoch when the process started. */
const STARTED_S = performance.timeOrigin / 1000;

const series = (name: string, type: "gauge" | "counter", help: string, value: number, labels = "") =>
  family(name, type, help, [sample(name, labels, value)]);

/** A /proc file's text, or null without /proc (macOS, a container without it). */
function proc(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function openFds(): number | null {
  try {
    // The listing's own descriptor is among them.
    return readdirSync("/proc/self/fd").length - 1;
  } catch {
    return null;
  }
}

/** A `Vm…:  123456 kB` line of /proc/self/status, in bytes. */
function statusBytes(status: string | null, field: "VmSize"): number | null {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status ?? "");
  return m ? Number(m[1]) * 1024 : null;
}

/** The soft limit of `Max open files` in /proc/self/limits. */
function maxFds(): number | null {
  const m = /^Max open files\s+(\d+)/m.exec(proc("/proc/self/limits") ?? "");
  return m ? Number(m[1]) : null;
}

/** `version`: the build's, from the command that started the server (package.json's). */
export function processSeries(version: string): string {
  const cpu = process.cpuUsage();
  const user = cpu.user / 1e6;
  const system = cpu.system / 1e6;
  const lines = [
    series("process_cpu_user_seconds_total", "counter", "User CPU time spent in seconds", user),
    series("process_cpu_system_seconds_total", "counter", "System CPU time spent in seconds", system),
    series("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds", user + system),
    series("process_resident_memory_bytes", "gauge", "Resident memory size in bytes", process.memoryUsage.rss()),
    // The JavaScript heap's size: the client libraries' VmData reads ~6 GB under JSC, address
    // space it reserves, not memory anyone should alert on.
    series("process_heap_bytes", "gauge", "Process heap size in bytes", process.memoryUsage().heapTotal),
    series("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds", STARTED_S),
  ];
  const virtual = statusBytes(proc("/proc/self/status"), "VmSize");
  if (virtual !== null)
    lines.push(series("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes", virtual));
  const fds = openFds();
  if (fds !== null) lines.push(series("process_open_fds", "gauge", "Number of open file descriptors", fds));
  const max = maxFds();
  if (max !== null) lines.push(series("process_max_fds", "gauge", "Maximum number of open file descriptors", max));
  lines.push(
    series("rq_uptime_seconds", "gauge", "Seconds since the process started", process.uptime()),
    series(
      "research_query_build_info",
      "gauge",
      "The running build: always 1, its version as a label",
      1,
      `version="${labelValue(version)}",bun="${labelValue(Bun.version)}"`,
    ),
  );
  return lines.join("\n");
}
