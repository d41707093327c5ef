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
  /** Shown beside the name in pickers. */
  description?: string;
  /** What provides the command. */
  source: "extension" | "prompt" | "skill";
  /** Where the command's file was found. */
  sourceInfo: SourceInfo;
}

/** The answer to `get_state`; undefined fields are left out of the JSON. */
export interface RpcSessionState {
  /** The current model, if any. */
  model?: Model;
  /** The current thinking level. */
  thinkingLevel: AgentThinkingLevel;
  /** Whether a run is in progress. */
  isStreaming: boolean;
  /** Whether a compaction is in progress. */
  isCompacting: boolean;
  /** How queued steering messages are delivered. */
  steeringMode: RpcQueueMode;
  /** How queued follow-up messages are delivered. */
  followUpMode: RpcQueueMode;
  /** Path of the session file; absent for in-memory sessions. */
  sessionFile?: string;
  /** Id of the session. */
  sessionId: string;
  /** Name of the session, if one was set. */
  sessionName?: string;
  /** Whether automatic compaction is on. */
  autoCompactionEnabled: boolean;
  /** Messages in the transcript. */
  messageCount: number;
  /** Steering and follow-up messages waiting. */
  pendingMessageCount: number;
}

/**
 * What became of a prompt, steer or follow-up: a run `started`, it was `queued` into the running
 * one, or an extension command or input handler `handled` it.
 */
export type RpcPromptDisposition = "started" | "queued" | "handled";

/** The `data` of each command's successful response (`undefined`: the response has no `data` key). */
export interface RpcResponseData {
  /** What became of the prompt. */
  prompt: { disposition: RpcPromptDisposition };
  /** What became of the steering message. */
  steer: { disposition: RpcPromptDisposition };
  /** What became of the follow-up message. */
  follow_up: { disposition: RpcPromptDisposition };
  /** No data. */
  abort: undefined;
  /** The messages that were dropped from each queue. */
  clear_queue: { steering: string[]; followUp: string[] };
  /** Thinking levels the current model supports. */
  get_available_thinking_levels: { levels: AgentThinkingLevel[] };
  /** Entries of the session file and the current leaf. */
  get_entries: { entries: SessionEntry[]; leafId: string | null };
  /** The session tree and the current leaf. */
  get_tree: { tree: SessionTreeNode[]; leafId: string | null };
  /** Whether an extension cancelled the switch. */
  new_session: { cancelled: boolean };
  /** The session's state. */
  get_state: RpcSessionState;
  /** The model now in use. */
  set_model: Model;
  /** The new model and thinking level; null when there is nothing to cycle to. */
  cycle_model: ModelCycleResult | null;
  /** Models with credentials. */
  get_available_models: { models: Model[] };
  /** No data. */
  set_thinking_level: undefined;
  /** The new level; null when the model does not reason. */
  cycle_thinking_level: { level: AgentThinkingLevel } | null;
  /** No data. */
  set_steering_mode: undefined;
  /** No data. */
  set_follow_up_mode: undefined;
  /** The compaction's summary and where the kept history starts. */
  compact: CompactionResult;
  /** No data. */
  set_auto_compaction: undefined;
  /** No data. */
  set_auto_retry: undefined;
  /** No data. */
  abort_retry: undefined;
  /** Output and exit code of the command. */
  bash: BashResult;
  /** No data. */
  abort_bash: undefined;
  /** Message counts, tokens, cost and context usage. */
  get_session_stats: SessionStats;
  /** Where the HTML file was written. */
  export_html: { path: string };
  /** Whether an extension cancelled the switch. */
  switch_session: { cancelled: boolean };
  /** The text of the message forked from, and whether an extension cancelled the fork. */
  fork: { text: string; cancelled: boolean };
  /** Whether an extension cancelled the clone. */
  clone: { cancelled: boolean };
  /** User messages that can be forked from. */
  get_fork_messages: { messages: { entryId: string; text: string }[] };
  /** Text of the last assistant message, if any. */
  get_last_assistant_text: { text?: string | null };
  /** No data. */
  set_session_name: undefined;
  /** The transcript of the current branch. */
  get_messages: { messages: AgentMessage[] };
  /** Slash commands available through `prompt`. */
  get_commands: { commands: RpcSlashCommand[] };
}

/**
 * RPC-only event: one chunk of a running `bash` command's output. `id` is the command's id; the
 * response may hold only the truncated tail, these carry everything.
 */
export interface RpcBashExecutionUpdate {
  /** Event kind. */
  type: "bash_execution_update";
  /** Id of the `bash` command this output belongs to. */
  id?: string;
  /** The new output. */
  delta: string;
}

/** A successful response to command `C`. */
export interface RpcSuccessResponse<C extends RpcCommandType = RpcCommandType> {
  /** The command's id, when it had one. */
  id?: string;
  /** Record kind. */
  type: "response";
  /** The command answered. */
  command: C;
  /** Always true here. */
  success: true;
  /** The command's result, for commands that return one. */
  data?: RpcResponseData[C];
}

/** A failed command; `command` is `"parse"` for lines that are not JSON. */
export interface RpcErrorResponse {
  /** The command's id, when it had one. */
  id?: string;
  /** Record kind. */
  type: "response";
  /** The command that failed, or "parse". */
  command: string;
  /** Always false here. */
  success: false;
  /** What went wrong. */
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
