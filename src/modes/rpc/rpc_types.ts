/**
 * The RPC protocol's records: commands read from stdin, responses and extension UI requests
 * written to stdout (session events in their wire form, see `../json_event.ts`). Shapes follow
 * pi 1.6.0 (docs/rpc.md).
 *
 * @module
 */
import type { AgentMessage, AgentThinkingLevel } from "../../agent/types.ts";
import type { ImageContent, Model } from "../../ai/types.ts";
import type {
  BashResult,
  CompactionResult,
  ModelCycleResult,
  SessionStats,
} from "../../core/agent_session_types.ts";
import type { SourceInfo } from "../../resources/source_info.ts";
import type { SessionEntry, SessionTreeNode } from "../../session/entries.ts";

/** How queued steering or follow-up messages are released. */
export type RpcQueueMode = "all" | "one-at-a-time";

/** A command sent to the agent; `id` is echoed on its response. */
export type RpcCommand =
  | {
    id?: string;
    type: "prompt";
    message: string;
    images?: ImageContent[];
    streamingBehavior?: "steer" | "followUp";
  }
  | { id?: string; type: "steer"; message: string; images?: ImageContent[] }
  | { id?: string; type: "follow_up"; message: string; images?: ImageContent[] }
  | { id?: string; type: "abort" }
  | { id?: string; type: "clear_queue" }
  | { id?: string; type: "new_session"; parentSession?: string }
  | { id?: string; type: "get_state" }
  | { id?: string; type: "set_model"; provider: string; modelId: string }
  | { id?: string; type: "cycle_model" }
  | { id?: string; type: "get_available_models" }
  | { id?: string; type: "set_thinking_level"; level: AgentThinkingLevel }
  | { id?: string; type: "cycle_thinking_level" }
  | { id?: string; type: "get_available_thinking_levels" }
  | { id?: string; type: "set_steering_mode"; mode: RpcQueueMode }
  | { id?: string; type: "set_follow_up_mode"; mode: RpcQueueMode }
  | { id?: string; type: "compact"; customInstructions?: string }
  | { id?: string; type: "set_auto_compaction"; enabled: boolean }
  | { id?: string; type: "set_auto_retry"; enabled: boolean }
  | { id?: string; type: "abort_retry" }
  | { id?: string; type: "bash"; command: string; excludeFromContext?: boolean }
  | { id?: string; type: "abort_bash" }
  | { id?: string; type: "get_session_stats" }
  | { id?: string; type: "export_html"; outputPath?: string }
  | { id?: string; type: "switch_session"; sessionPath: string }
  | { id?: string; type: "fork"; entryId: string }
  | { id?: string; type: "clone" }
  | { id?: string; type: "get_fork_messages" }
  | { id?: string; type: "get_entries"; since?: string }
  | { id?: string; type: "get_tree" }
  | { id?: string; type: "get_last_assistant_text" }
  | { id?: string; type: "set_session_name"; name: string }
  | { id?: string; type: "get_messages" }
  | { id?: string; type: "get_commands" };

/** The `type` of a command. */
export type RpcCommandType = RpcCommand["type"];

/** A command that can be invoked through `prompt` (`/name`). */
export interface RpcSlashCommand {
  /** Without the leading slash. */
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo: SourceInfo;
}

/** The answer to `get_state`; undefined fields are left out of the JSON. */
export interface RpcSessionState {
  model?: Model;
  thinkingLevel: AgentThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: RpcQueueMode;
  followUpMode: RpcQueueMode;
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

/**
 * What became of a prompt, steer or follow-up: a run `started`, it was `queued` into the running
 * one, or an extension command or input handler `handled` it.
 */
export type RpcPromptDisposition = "started" | "queued" | "handled";

/** The `data` of each command's successful response (`undefined`: the response has no `data` key). */
export interface RpcResponseData {
  prompt: { disposition: RpcPromptDisposition };
  steer: { disposition: RpcPromptDisposition };
  follow_up: { disposition: RpcPromptDisposition };
  abort: undefined;
  clear_queue: { steering: string[]; followUp: string[] };
  get_available_thinking_levels: { levels: AgentThinkingLevel[] };
  get_entries: { entries: SessionEntry[]; leafId: string | null };
  get_tree: { tree: SessionTreeNode[]; leafId: string | null };
  new_session: { cancelled: boolean };
  get_state: RpcSessionState;
  set_model: Model;
  cycle_model: ModelCycleResult | null;
  get_available_models: { models: Model[] };
  set_thinking_level: undefined;
  cycle_thinking_level: { level: AgentThinkingLevel } | null;
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: CompactionResult;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  bash: BashResult;
  abort_bash: undefined;
  get_session_stats: SessionStats;
  export_html: { path: string };
  switch_session: { cancelled: boolean };
  fork: { text: string; cancelled: boolean };
  clone: { cancelled: boolean };
  get_fork_messages: { messages: { entryId: string; text: string }[] };
  get_last_assistant_text: { text?: string | null };
  set_session_name: undefined;
  get_messages: { messages: AgentMessage[] };
  get_commands: { commands: RpcSlashCommand[] };
}

/**
 * RPC-only event: one chunk of a running `bash` command's output. `id` is the command's id; the
 * response may hold only the truncated tail, these carry everything.
 */
export interface RpcBashExecutionUpdate {
  type: "bash_execution_update";
  id?: string;
  delta: string;
}

/** A successful response to command `C`. */
export interface RpcSuccessResponse<C extends RpcCommandType = RpcCommandType> {
  id?: string;
  type: "response";
  command: C;
  success: true;
  data?: RpcResponseData[C];
}

/** A failed command; `command` is `"parse"` for lines that are not JSON. */
export interface RpcErrorResponse {
  id?: string;
  type: "response";
  command: string;
  success: false;
  error: string;
}

/** Any response line. */
export type RpcResponse = RpcSuccessResponse | RpcErrorResponse;

/** Emitted when an extension needs the user (dialogs) or wants to show something (fire-and-forget). */
export type RpcExtensionUIRequest =
  | {
    type: "extension_ui_request";
    id: string;
    method: "select";
    title: string;
    options: string[];
    timeout?: number;
  }
  | {
    type: "extension_ui_request";
    id: string;
    method: "confirm";
    title: string;
    message: string;
    timeout?: number;
  }
  | {
    type: "extension_ui_request";
    id: string;
    method: "input";
    title: string;
    placeholder?: string;
    timeout?: number;
  }
  | { type: "extension_ui_request"; id: string; method: "editor"; title: string; prefill?: string }
  | {
    type: "extension_ui_request";
    id: string;
    method: "notify";
    message: string;
    notifyType?: "info" | "warning" | "error";
  }
  | {
    type: "extension_ui_request";
    id: string;
    method: "setStatus";
    statusKey: string;
    statusText: string | undefined;
  }
  | {
    type: "extension_ui_request";
    id: string;
    method: "setWidget";
    widgetKey: string;
    widgetLines: string[] | undefined;
    widgetPlacement?: "aboveEditor" | "belowEditor";
  }
  | { type: "extension_ui_request"; id: string; method: "setTitle"; title: string }
  | { type: "extension_ui_request"; id: string; method: "set_editor_text"; text: string };

/** The client's answer to a dialog request. */
export type RpcExtensionUIResponse =
  | { type: "extension_ui_response"; id: string; value: string }
  | { type: "extension_ui_response"; id: string; confirmed: boolean }
  | { type: "extension_ui_response"; id: string; cancelled: true };
