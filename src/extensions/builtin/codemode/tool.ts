/**
 * The `codemode` tool of pi 1.6.0's built-in `codemode` extension: the model writes JavaScript that
 * calls other tools (`tools.<name>()`), and only the script's output reaches the model. Scripts run
 * in a Deno Worker with no permissions (`sandbox.ts`); each tool call is a message to this host,
 * which validates the arguments against the tool's schema and runs it like a direct call.
 *
 * Nested results: a tool with an output schema (bash, read's images, MCP tools, whose script value
 * is the whole `CallToolResult`) resolves to its structured content, also for an error result that
 * carries one; other tools resolve to their text; a failed call rejects with its error text. A
 * failed script keeps its partial output, then `Script error:` and the error. `store()` writes of a
 * successful script are appended to the session as a `codemode-store` entry.
 *
 * @module
 */
import type { AgentTool, AgentToolResult } from "../../../agent/types.ts";
import {
  createToolSearchDocument,
  DEFAULT_TOOL_SEARCH_LIMIT,
  rankTools,
  type ToolNamespace,
} from "../tool_search/ranker.ts";
import {
  CODEMODE_DESCRIPTION,
  CODEMODE_PARAMETERS,
  CODEMODE_PROMPT_GUIDELINES,
  CODEMODE_PROMPT_SNIPPET,
  CODEMODE_SOURCE_GRAMMAR,
  CODEMODE_STORE_ENTRY_TYPE,
  CODEMODE_TOOL_NAME,
  renderToolSample,
  toCodemodeIdentifier,
} from "./declarations.ts";
import {
  type CodemodeCallRecord,
  DEFAULT_MAX_OUTPUT_TOKENS,
  formatError,
  formatOutput,
  joinAdjacentText,
  saveImages,
  truncateOutput,
} from "./output.ts";
import { NestedCallRecorder } from "./nested_calls.ts";
import { parseCodemodeSource } from "./source.ts";
import { runInSandbox, type SandboxOutput, SandboxPool } from "./sandbox.ts";

const ARGS_PREVIEW_CHARS = 200;
const ERROR_PREVIEW_CHARS = 500;

/** A tool a script may call. */
export interface CallableTool {
  tool: AgentTool;
  /** Its own description (a declared tool's description may carry codemode's line). */
  description?: string;
  /** Its prompt guidelines, which `ALL_TOOLS` and `describeTool()` show. */
  guidelines?: readonly string[];
  /** What the script's call resolves to (undefined: its text). */
  outputSchema?: unknown;
  namespace?: ToolNamespace;
}

/** What a script may call: every tool (`"all"`), or the words of its source (see {@link scriptReach}). */
export type ScriptReach = "all" | readonly string[];

/** Script globals that list or look up tools, after which a script may call a tool by any name. */
const DISCOVERY_GLOBALS = /\b(searchTools|describeNamespace|describeTool|ALL_TOOLS)\b/;

/**
 * The tools a script may call, as 1.6.0 judges it before the script runs: every tool when the
 * source uses a discovery global, else the words of the source, so `tools.mcp__docs__search` and
 * `tools["mcp__docs__" + name]` both name the `mcp__docs` namespace.
 */
export function scriptReach(code: string): ScriptReach {
  return DISCOVERY_GLOBALS.test(code) ? "all" : (code.match(/\w+/g) ?? []);
}

/** Whether a script of `reach` needs the server of namespace `namespace` (`mcp__<server>`). */
export function reachesNamespace(reach: ScriptReach, namespace: string): boolean {
  return reach === "all" || reach.some((word) => word.includes(namespace));
}

/** What the codemode tool needs of its session. */
export interface CodemodeHost {
  /**
   * Resolves when the tools a script of `reach` may call are registered: 1.6.0 waits for the
   * MCP servers the script names, or for all of them when it searches or lists tools.
   */
  ready?(reach: ScriptReach): Promise<void>;
  /**
   * Runs `hook` when the session ends. With it the tool keeps a confined worker started ahead of
   * the next script (terminated by the hook); without it every script starts its own.
   */
  onDispose?(hook: () => void): void;
  /** Active declared tools and every tool with `codemode` or `deferred` exposure. */
  callableTools(): CallableTool[];
  /** The `codemode-store` values on the session's branch. */
  readStore(): Record<string, unknown>;
  /** Records a successful script's writes. */
  appendStore(data: { set: Record<string, unknown>; delete: string[] }): void;
}

/** `details` of a codemode result. */
export interface CodemodeDetails {
  calls: CodemodeCallRecord[];
  fullOutputPath?: string;
}

/** The `store()` values of a branch: its `codemode-store` entries applied from the root. */
export function readCodemodeStore(
  branch: readonly { type: string; customType?: string; data?: unknown }[],
): Record<string, unknown> {
  const store = new Map<string, unknown>();
  for (const entry of branch) {
    if (entry.type !== "custom" || entry.customType !== CODEMODE_STORE_ENTRY_TYPE) continue;
    const data = entry.data as { set?: unknown; delete?: unknown } | undefined;
    if (typeof data?.set !== "object" || data.set === null || !Array.isArray(data.delete)) continue;
    for (const key of data.delete) if (typeof key === "string") store.delete(key);
    for (const [key, value] of Object.entries(data.set)) store.set(key, value);
  }
  return Object.fromEntries(store);
}

function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function previewArgs(args: unknown): string {
  if (args === undefined) return "";
  try {
    return truncateText(JSON.stringify(args) ?? "", ARGS_PREVIEW_CHARS);
  } catch {
    return "";
  }
}

function textOf(result: AgentToolResult): string {
  return result.content.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n");
}

/** Whether `query` names the namespace or one of its aliases, as written or as an identifier. */
function isNamespaceName(namespace: ToolNamespace, query: string): boolean {
  const id = toCodemodeIdentifier(query);
  return [namespace.name, ...(namespace.aliases ?? [])].some((name) =>
    name === query || toCodemodeIdentifier(name) === id
  );
}

/** The `codemode` tool over `host`. */
export function createCodemodeTool(host: CodemodeHost): AgentTool<{ code: string }, CodemodeDetails> & {
  promptSnippet: string;
  promptGuidelines: string[];
} {
  let pool: SandboxPool | undefined;
  if (host.onDispose) {
    const created = new SandboxPool();
    host.onDispose(() => created.dispose());
    // Started ahead (just after the session is built), the worker is ready for the first script.
    created.prewarmSoon();
    pool = created;
  }
  return {
    name: CODEMODE_TOOL_NAME,
    label: CODEMODE_TOOL_NAME,
    description: CODEMODE_DESCRIPTION,
    promptSnippet: CODEMODE_PROMPT_SNIPPET,
    promptGuidelines: [...CODEMODE_PROMPT_GUIDELINES],
    parameters: CODEMODE_PARAMETERS as unknown as AgentTool["parameters"],
    // Kept as 1.6.0 declares it, so the transcript records the same tool.
    ...({
      constrainedSampling: { type: "grammar", variants: { openai_lark: CODEMODE_SOURCE_GRAMMAR } },
    } as object),
    execute: (toolCallId, params, signal, onUpdate) =>
      executeScript(host, pool, toolCallId, params, signal, onUpdate),
  };
}

async function executeScript(
  host: CodemodeHost,
  pool: SandboxPool | undefined,
  toolCallId: string,
  params: { code: string },
  signal: AbortSignal | undefined,
  onUpdate: ((partial: AgentToolResult<CodemodeDetails>) => void) | undefined,
): Promise<AgentToolResult<CodemodeDetails>> {
  const startedAt = performance.now();
  const { code, options } = parseCodemodeSource(params.code);
  const calls: CodemodeCallRecord[] = [];
  const snapshot = (): CodemodeDetails => ({ calls: calls.map((call) => ({ ...call })) });
  const publish = () => onUpdate?.({ content: [], details: snapshot() });
  publish();
  await host.ready?.(scriptReach(code));
  const callable = host.callableTools().filter(({ tool }) =>
    tool.name !== CODEMODE_TOOL_NAME && tool.name !== "tool_search"
  );
  const samples = new Map(callable.map((entry) => [
    entry.tool.name,
    renderToolSample({
      name: entry.tool.name,
      description: entry.description ?? entry.tool.description,
      parameters: entry.tool.parameters,
      outputSchema: entry.outputSchema,
      guidelines: entry.guidelines,
    }),
  ]));
  let nested = 0;
  const recorder = new NestedCallRecorder();
  const { validateToolArguments } = await import("../../../ai/validation.ts");
  const run = async (entry: CallableTool, args: unknown, callSignal: AbortSignal): Promise<unknown> => {
    const { tool } = entry;
    const id = `${toolCallId}/${++nested}`;
    const record: CodemodeCallRecord = { id, name: tool.name, args: previewArgs(args), status: "running" };
    calls.push(record);
    const nestedRecord = recorder.start(id, tool.name, args);
    publish();
    const callStartedAt = performance.now();
    let result: AgentToolResult;
    let isError: boolean;
    try {
      const validated = validateToolArguments(tool, {
        type: "toolCall",
        id,
        name: tool.name,
        arguments: (args ?? {}) as Record<string, unknown>,
      });
      result = await tool.execute(id, validated, callSignal);
      isError = result.isError === true;
    } catch (error) {
      result = {
        content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
        details: {},
      };
      isError = true;
    }
    record.durationMs = Math.round(performance.now() - callStartedAt);
    if (isError) {
      record.status = callSignal.aborted ? "cancelled" : "error";
      record.error = truncateText(textOf(result) || `Tool "${tool.name}" failed`, ERROR_PREVIEW_CHARS);
    } else record.status = "ok";
    recorder.finish(nestedRecord, isError, textOf(result) || `Tool "${tool.name}" failed`);
    publish();
    if (entry.outputSchema !== undefined && result.structuredContent !== undefined) {
      return result.structuredContent;
    }
    if (isError) throw new Error(textOf(result) || `Tool "${tool.name}" failed`);
    return textOf(result);
  };
  const result = await runInSandbox({
    code,
    tools: callable.map((entry) => ({
      name: entry.tool.name,
      jsName: toCodemodeIdentifier(entry.tool.name),
      description: samples.get(entry.tool.name) ?? "",
      call: (args, callSignal) => run(entry, args, callSignal),
    })),
    globals: discoveryGlobals(callable, samples),
    store: Object.fromEntries(
      Object.entries(host.readStore()).map(([key, value]) => [key, JSON.stringify(value)]),
    ),
    timeoutMs: options.timeoutMs,
    signal,
  }, pool);
  for (const call of calls) if (call.status === "running") call.status = "cancelled";
  const scriptOutput: SandboxOutput[] = [...result.output];
  if (result.ok) {
    const { set, delete: deleted } = result.storeWrites;
    if (Object.keys(set).length > 0 || deleted.length > 0) host.appendStore({ set, delete: deleted });
    // A returned value is added like text().
    if (result.value !== undefined) {
      scriptOutput.push({
        type: "text",
        text: typeof result.value === "string"
          ? result.value
          : JSON.stringify(result.value) ?? String(result.value),
      });
    }
  }
  const items = formatOutput(scriptOutput);
  if (!result.ok) items.push({ type: "text", text: `Script error:\n${formatError(result.error, calls)}` });
  const truncated = await truncateOutput(
    joinAdjacentText(items),
    options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
  );
  const output = joinAdjacentText(await saveImages(truncated.items));
  const wallTime = ((performance.now() - startedAt) / 1000).toFixed(1);
  const header = `${
    result.ok ? "Script completed" : "Script failed"
  }\nWall time ${wallTime} seconds\nOutput:\n`;
  const details = snapshot();
  if (truncated.fullOutputPath) details.fullOutputPath = truncated.fullOutputPath;
  const nestedCalls = recorder.snapshot();
  return {
    content: [{ type: "text", text: header }, ...output],
    details,
    ...(nestedCalls ? { nestedCalls } : {}),
    ...(result.ok ? {} : { isError: true }),
  };
}

/** `searchTools()`, `describeTool()`, `describeNamespace()`, and `models.*` (not in this build yet). */
function discoveryGlobals(
  tools: readonly CallableTool[],
  samples: Map<string, string>,
): { name: string; spread: boolean; call: (args: unknown) => unknown }[] {
  const entry = (name: string) => ({
    name: toCodemodeIdentifier(name),
    description: samples.get(name) ?? "",
  });
  const notAvailable = (name: string) => ({
    name,
    spread: true,
    call: () => {
      throw new Error(`${name}() (classifier and image models) is not available in this build yet`);
    },
  });
  return [
    {
      name: "searchTools",
      spread: true,
      call: (args) => {
        const [query, options] = args as [unknown, { limit?: unknown; namespace?: unknown } | undefined];
        if (typeof query !== "string") throw new Error("searchTools() expects a query string");
        const limit = options?.limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
        if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) {
          throw new Error("searchTools() limit must be a positive integer");
        }
        const namespace = options?.namespace;
        if (namespace !== undefined && namespace !== null && typeof namespace !== "string") {
          throw new Error("searchTools() namespace must be a string");
        }
        const documents = tools.flatMap((entry) => {
          const { tool, namespace: own } = entry;
          if (namespace && (!own || !isNamespaceName(own, namespace))) return [];
          return [
            createToolSearchDocument({
              ...tool,
              description: entry.description ?? tool.description,
              namespace: own,
            }),
          ];
        });
        return rankTools(query, documents, limit).map((match) => entry(match.name));
      },
    },
    {
      name: "describeTool",
      spread: true,
      call: (args) => {
        const [name] = args as [unknown];
        if (typeof name !== "string") throw new Error("describeTool() expects a tool name");
        const found = tools.find(({ tool }) =>
          tool.name === name || toCodemodeIdentifier(tool.name) === name
        );
        return found ? samples.get(found.tool.name) : undefined;
      },
    },
    {
      name: "describeNamespace",
      spread: true,
      call: (args) => {
        const [name] = args as [unknown];
        if (typeof name !== "string") throw new Error("describeNamespace() expects a namespace name");
        let namespace: ToolNamespace | undefined;
        const names: string[] = [];
        for (const { tool, namespace: own } of tools) {
          if (!own || !isNamespaceName(own, name)) continue;
          namespace ??= own;
          names.push(toCodemodeIdentifier(tool.name));
        }
        if (!namespace) return undefined;
        return {
          name: namespace.name,
          ...(namespace.description ? { description: namespace.description } : {}),
          ...(namespace.instructions ? { instructions: namespace.instructions } : {}),
          tools: names,
        };
      },
    },
    ...["getModelsOfType", "getAvailableOfType", "getModelOfType", "classify", "generateImages"].map((name) =>
      notAvailable(`models.${name}`)
    ),
  ];
}
