/**
 * Checks a parsed JSON line before it reaches a handler. The reference passes whatever arrived
 * straight to the session, so a missing or mistyped field surfaces as an internal TypeError (or
 * worse, as a corrupted setting); here each field is checked and the error names it.
 *
 * @module
 */
import type { RpcCommand, RpcCommandType } from "../rpc_types.ts";

/** Why a line was rejected; `command`/`id` are what the response echoes. */
export interface RpcValidationError {
  command: string;
  id?: string;
  error: string;
}

type FieldCheck = [name: string, kind: FieldKind, required: boolean];
type FieldKind = "string" | "boolean" | "images" | "level" | "queueMode" | "streamingBehavior";

const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const QUEUE_MODES = ["all", "one-at-a-time"];
const BEHAVIORS = ["steer", "followUp"];

const MESSAGE_FIELDS: FieldCheck[] = [["message", "string", true], ["images", "images", false]];

/** The fields each command takes; commands without an entry take none. */
const FIELDS: Record<RpcCommandType, FieldCheck[]> = {
  prompt: [...MESSAGE_FIELDS, ["streamingBehavior", "streamingBehavior", false]],
  steer: MESSAGE_FIELDS,
  follow_up: MESSAGE_FIELDS,
  abort: [],
  clear_queue: [],
  new_session: [["parentSession", "string", false]],
  get_state: [],
  set_model: [["provider", "string", true], ["modelId", "string", true]],
  cycle_model: [],
  get_available_models: [],
  set_thinking_level: [["level", "level", true]],
  cycle_thinking_level: [],
  get_available_thinking_levels: [],
  set_steering_mode: [["mode", "queueMode", true]],
  set_follow_up_mode: [["mode", "queueMode", true]],
  compact: [["customInstructions", "string", false]],
  set_auto_compaction: [["enabled", "boolean", true]],
  set_auto_retry: [["enabled", "boolean", true]],
  abort_retry: [],
  bash: [["command", "string", true], ["excludeFromContext", "boolean", false]],
  abort_bash: [],
  get_session_stats: [],
  export_html: [["outputPath", "string", false]],
  switch_session: [["sessionPath", "string", true]],
  fork: [["entryId", "string", true]],
  clone: [],
  get_fork_messages: [],
  get_entries: [["since", "string", false]],
  get_tree: [],
  get_last_assistant_text: [],
  set_session_name: [["name", "string", true]],
  get_messages: [],
  get_commands: [],
};

/** Whether `type` names a command this protocol version knows. */
export function isRpcCommandType(type: string): type is RpcCommandType {
  return Object.hasOwn(FIELDS, type);
}

/** Validates a parsed line as a command. */
export function validateCommand(value: unknown): RpcCommand | RpcValidationError {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { command: "parse", error: "Invalid command: expected a JSON object" };
  }
  const record = value as Record<string, unknown>;
  const rawId = record.id;
  if (rawId !== undefined && typeof rawId !== "string") {
    return {
      command: typeof record.type === "string" ? record.type : "parse",
      error: 'Invalid command: "id" must be a string',
    };
  }
  const id = rawId as string | undefined;
  if (typeof record.type !== "string") {
    return { command: "parse", id, error: 'Invalid command: "type" must be a string' };
  }
  const type = record.type;
  if (!isRpcCommandType(type)) return { command: type, id, error: `Unknown command: ${type}` };
  const command: Record<string, unknown> = { ...record };
  for (const [name, kind, required] of FIELDS[type]) {
    const field = record[name];
    if (field === undefined || field === null) {
      if (required) return { command: type, id, error: `Invalid ${type} command: "${name}" is required` };
      // An explicit null means "not given" for optional fields.
      delete command[name];
      continue;
    }
    const problem = checkField(field, kind);
    if (problem) return { command: type, id, error: `Invalid ${type} command: "${name}" ${problem}` };
  }
  return command as RpcCommand;
}

function checkField(value: unknown, kind: FieldKind): string | undefined {
  switch (kind) {
    case "string":
      return typeof value === "string" ? undefined : "must be a string";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "level":
      return oneOf(value, THINKING);
    case "queueMode":
      return oneOf(value, QUEUE_MODES);
    case "streamingBehavior":
      return oneOf(value, BEHAVIORS);
    case "images":
      return checkImages(value);
  }
}

function oneOf(value: unknown, allowed: string[]): string | undefined {
  return typeof value === "string" && allowed.includes(value)
    ? undefined
    : `must be one of ${allowed.map((a) => `"${a}"`).join(", ")}`;
}

function checkImages(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "must be an array of images";
  for (const [i, image] of value.entries()) {
    const ok = typeof image === "object" && image !== null && image.type === "image" &&
      typeof image.data === "string" && typeof image.mimeType === "string";
    if (!ok) return `[${i}] must be {"type":"image","data":string,"mimeType":string}`;
  }
  return undefined;
}
