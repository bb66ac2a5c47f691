/**
 * Prometheus's text format, written once for every series of /metrics: a family is its HELP
 * and TYPE lines, then its samples (`name{labels} value`).
 */

/** A label's value as the format can hold it: a quote, a backslash or a line break would end it early. */
export const labelValue = (v: string) => v.replace(/["\\\n]/g, "_");

/** Labels as samples carry them, sorted by name: "" for none. */
export const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .sort()
    .map(([k, v]) => `${k}="${labelValue(v)}"`)
    .join(",");

/** One sample; `labels` already written (labelText), "" for none. */
export const sample = (name: string, labels: string, value: number) => `${name}${labels ? `{${labels}}` : ""} ${value}`;

/** A metric family: its HELP and TYPE lines, then its samples. */
export const family = (name: string, type: "counter" | "gauge" | "histogram", help: string, samples: string[]) =>
  [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples].join("\n");
