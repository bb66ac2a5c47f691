import { inlineParser } from "./doc-parser.ts";
import { createParsePool } from "./parse-pool.ts";

/**
 * One parse worker under the memory watchdog, spawned on first use, for a command that reads a
 * page or file now and then (`extract`, MCP's `extract`, `corpus add`'s PDFs). Threat: a PDF bomb
 * the stream check cannot measure taking the machine's memory on the calling thread
 * (docs/decisions/0098-pdf-parse-watchdog.md).
 */
export const watchedParser = (memoryMb: number) =>
  createParsePool({ size: 1, memoryLimit: memoryMb * 1048576 }, inlineParser);
