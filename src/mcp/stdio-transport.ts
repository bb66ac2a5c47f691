import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** A line longer than this is refused (the SDK's own stdio limit), and read past to its end. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

type Id = string | number | null;

/**
 * MCP's stdio framing (one JSON-RPC message a line) for the SDK's protocol layer. The SDK's
 * own stdio transport drops a line it cannot read without a word to the client, which then
 * waits for an answer that never comes; here a line that is not JSON gets a Parse error and
 * one that is not a JSON-RPC message an Invalid Request (JSON-RPC 2.0 §5.1), and the server
 * reads on. The end of standard input ends the server, as the MCP specification's shutdown asks.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onEnd);
  }

  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
      this.take(buf.subarray(0, nl));
      const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
      const skipped = this.skipping;
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      if (!skipped && line.trim()) this.receive(line);
      buf = buf.subarray(nl + 1);
    }
    this.take(buf);
  };

  private take(part: Buffer): void {
    if (this.skipping || !part.length) return;
    this.size += part.length;
    if (this.size <= MAX_LINE_BYTES) {
      this.parts.push(part);
      return;
    }
    this.parts = [];
    this.skipping = true;
    this.refuse(null, ErrorCode.InvalidRequest, `Invalid Request: a message is at most ${MAX_LINE_BYTES} bytes`);
  }

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.refuse(null, ErrorCode.ParseError, `Parse error: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    this.refuse(
      typeof id === "string" || typeof id === "number" ? id : null,
      ErrorCode.InvalidRequest,
      "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
    );
  }

  private refuse(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once("drain", () => resolve());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onEnd);
    this.onclose?.();
  }
}
