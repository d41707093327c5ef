/**
 * `mcp.log` in the agent dir: the `notifications/message` lines servers send, as
 * `<time> [<server>] <level> <logger>: <message>`, rotated to `mcp.log.1` past 5 MB (1.6.0). Each
 * line is one synchronous append, since several pi processes may write the file; write errors are
 * ignored, logging must not break tools.
 *
 * @module
 */
import { dirname } from "../../../util/path.ts";

const MAX_LOG_BYTES = 5 * 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function formatData(data: unknown): string {
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

/** One log line for a `notifications/message` of `server`; continuation lines are indented. */
export function formatMcpLogMessage(server: string, params: unknown, now: Date = new Date()): string {
  const message = isRecord(params) ? params : { data: params };
  const level = typeof message.level === "string" ? message.level : "info";
  const logger = typeof message.logger === "string" && message.logger ? ` ${message.logger}:` : "";
  const text = formatData(message.data).replace(/\r?\n/g, "\n    ");
  return `${now.toISOString()} [${server}] ${level}${logger} ${text}\n`;
}

/** Appends server log messages to one file. */
export class McpServerLog {
  readonly path: string;
  #size: number | undefined;

  constructor(path: string) {
    this.path = path;
  }

  /** Appends one message of `server`. */
  write(server: string, params: unknown): void {
    const line = formatMcpLogMessage(server, params);
    try {
      if (this.#size === undefined) {
        Deno.mkdirSync(dirname(this.path), { recursive: true });
        this.#size = this.#currentSize();
      }
      if (this.#size > MAX_LOG_BYTES) {
        // Another process may have rotated it already.
        if (this.#currentSize() > MAX_LOG_BYTES) Deno.renameSync(this.path, `${this.path}.1`);
        this.#size = this.#currentSize();
      }
      const bytes = new TextEncoder().encode(line);
      Deno.writeFileSync(this.path, bytes, { append: true });
      this.#size += bytes.length;
    } catch {
      // Best effort.
    }
  }

  #currentSize(): number {
    try {
      return Deno.statSync(this.path).size;
    } catch {
      return 0;
    }
  }
}
