/**
 * MCP for one session, the part of 1.6.0's built-in `mcp` extension this build has: reads the
 * `mcp.json` files, connects every enabled server in the background (the MCP SDK loads only now),
 * registers the tools as `mcp__<server>__<tool>` (`direct` ones declared to the model, `deferred`
 * and `codemode` ones kept undeclared for `tool_search` to load), activates `tool_search` when a
 * server has deferred tools, keeps the `mcp_servers` section of the system prompt, makes the first
 * prompt wait up to 10 s for servers with direct tools, appends server log messages to `mcp.log`,
 * and closes the servers with the session.
 *
 * It reaches the session through {@link McpSessionTarget}, a narrow view core's `AgentSession`
 * satisfies, so this folder never imports core.
 *
 * @module
 */
import type { AgentTool } from "../../../agent/types.ts";
import { toolNameMatcher } from "../../../tools/tool_name_matcher.ts";
import { holdExit } from "../../../util/exit_work.ts";
import { join } from "../../../util/path.ts";
import { getMcpToolExposure, loadMcpConfig, type McpExposure, type McpServerEntry } from "./config.ts";
import type { McpServerConnection } from "./connection.ts";
import { ConnectGate } from "./connect_gate.ts";
import { McpServerLog } from "./log.ts";
import { updateMcpServerConfig } from "./config_edit.ts";
import type { McpServerRegistry } from "../../mcp_servers.ts";
import { createMcpToolName, mcpNamespace } from "./naming.ts";
import { configuredExposures, MCP_SERVERS_SECTION, renderServersSection } from "./section.ts";
import { createMcpResourceTools } from "./resources.ts";
import { createMcpToolDefinition } from "./tools.ts";
import type { SearchableTool, ToolNamespace } from "../tool_search/ranker.ts";
import { createToolSearchTool, TOOL_SEARCH_TOOL_NAME } from "../tool_search/tool.ts";
import {
  CODEMODE_STORE_ENTRY_TYPE,
  CODEMODE_TOOL_NAME,
  describeScriptCall,
  mcpResultSchema,
} from "../codemode/declarations.ts";
import {
  type CallableTool,
  createCodemodeTool,
  reachesNamespace,
  readCodemodeStore,
  type ScriptReach,
} from "../codemode/tool.ts";

const DEFAULT_STARTUP_WAIT_MS = 10_000;
/** How long into the first reply deferred servers start if it is still streaming. */
const REPLY_STREAMING_MS = 1_000;

/** What MCP needs of a session. */
export interface McpSessionTarget {
  /** The session's folder (stdio servers' relative `cwd`, the client's root). */
  readonly cwd: string;
  /** Adds tools; new names become active (declared to the model). */
  addTools(tools: readonly AgentTool[]): void;
  /** Names of the active tools. */
  getActiveToolNames(): string[];
  /** Activates exactly these tools. */
  setActiveToolsByName(names: string[]): void;
  /** Sets (or, with undefined, removes) a named section of the system prompt. */
  setPromptSection(name: string, content: string | undefined): void;
  /** Runs `hook` before each prompt's run starts (before the system prompt is recorded). */
  addPromptPreparer(hook: () => Promise<void>): void;
  /** Runs `hook` when the session is disposed. */
  addDisposer(hook: () => void): void;
  /** The agent, whose active tools codemode scripts may call. */
  readonly agent: { readonly state: { readonly tools: readonly AgentTool[] } };
  /** The session file, whose branch holds codemode's `store()` values. */
  readonly sessionManager: {
    getBranch(): readonly { type: string; customType?: string; data?: unknown }[];
  };
  /** Appends a custom entry (codemode's `codemode-store`). */
  appendCustomEntry(customType: string, data?: unknown): void;
  /** Session events; the first reply's `message_start` opens the gate of deferred connections. */
  subscribe(listener: (event: { type: string; message?: { role?: string } }) => void): () => void;
}

/** Options of {@link startSessionMcp}. */
export interface SessionMcpOptions {
  agentDir: string;
  projectTrusted: boolean;
  /** Tells the user something (print/JSON mode: a stderr line). */
  notify: (message: string, level: "info" | "warning" | "error") => void;
  /** How long the first prompt waits for servers with direct tools (1.6.0: 10 s). */
  startupWaitMs?: number;
  /** Whether the mode has `/mcp` (the TUI): the attention report then ends with 1.6.0's "Run /mcp to fix.". */
  mcpCommand?: boolean;
  /** `--tools`, `--exclude-tools` and `--no-tools`, which apply to MCP tools as in 1.6.0. */
  toolFlags?: McpToolFlags;
  /** Whether `builtin:tool-search` is on (default true): it reaches the `deferred` tools. */
  toolSearch?: boolean;
  /** Whether `builtin:codemode` is on (default true): it reaches the `codemode` tools. */
  codemode?: boolean;
  /** Servers extensions registered; they connect beside the `mcp.json` ones, which win a shared name. */
  registry?: McpServerRegistry;
  /**
   * Whether servers without `direct` tools start only once the first reply begins or something needs
   * them (print, JSON and RPC mode: nothing about them is needed before the first request, and
   * their start would compete with it). Default false: every server starts at once (the TUI).
   */
  deferConnections?: boolean;
}

/** The tool flags of a run. */
export interface McpToolFlags {
  tools?: readonly string[];
  excludeTools?: readonly string[];
  noTools?: boolean;
}

/**
 * Whether an MCP tool (server or resource tool) may be declared directly: `--exclude-tools` removes
 * matches; an allowlist `--tools` (or `--no-tools`) declares only the MCP tools it names or matches
 * (1.6.0, docs/cli.md "MCP tools"; its other rule, that `mcp__` entries also limit what codemode
 * reaches, waits for codemode).
 */
export function mcpToolAllowed(flags: McpToolFlags | undefined): (name: string) => boolean {
  const excluded = toolNameMatcher(flags?.excludeTools ?? []);
  const list = (flags?.tools ?? []).filter((entry) => !/^[+-]/.test(entry));
  const named = toolNameMatcher(list);
  // An allowlist declares only the MCP tools it names or matches (modifier-only lists are none).
  const filtering = list.length > 0 || flags?.noTools === true;
  return (name) => !excluded(name) && (!filtering || named(name));
}

/**
 * Whether an MCP tool exists at all (for codemode and tool_search to reach): `--exclude-tools`
 * removes matches, and an allowlist `--tools` removes MCP tools only when one of its entries starts
 * with `mcp__` (1.6.0, docs/mcp.md).
 */
export function mcpToolExists(flags: McpToolFlags | undefined): (name: string) => boolean {
  const excluded = toolNameMatcher(flags?.excludeTools ?? []);
  const list = (flags?.tools ?? []).filter((entry) => !/^[+-]/.test(entry) && entry.startsWith("mcp__"));
  const named = toolNameMatcher(list);
  return (name) => !excluded(name) && (list.length === 0 || named(name));
}

/** A configured server of the session and its connection (once started). */
export interface ServerState {
  entry: McpServerEntry;
  connection?: McpServerConnection;
  /** Settles when the connection attempt connected (and its tools were added) or failed. */
  ready?: Promise<void>;
  /** The latest tool registration (naming hashes asynchronously). */
  registering?: Promise<void>;
}

function isEnabled(server: ServerState): boolean {
  return server.entry.config.enabled !== false;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

/** The MCP state of a session: its servers and their tools. */
export class SessionMcp {
  readonly servers: ServerState[];
  readonly configErrors: readonly string[];
  #target: McpSessionTarget;
  #options: SessionMcpOptions;
  /** pi tool name → `<server>\0<tool>`, so names stay unique and stable. */
  #toolOwners = new Map<string, string>();
  /** Tool names each server currently offers. */
  #serverTools = new Map<string, Set<string>>();
  #waitedForStartup = false;
  /** The exposure the resource tools were registered with; undefined until a server has resources. */
  #resourceExposure: McpExposure | undefined;
  #pending: Promise<void> = Promise.resolve();
  #log: McpServerLog;
  #allowed: (name: string) => boolean;
  #exists: (name: string) => boolean;
  /** Registered tools that are not declared until loaded (`deferred`/`codemode` exposure), by name. */
  #indirect = new Map<string, SearchableTool>();
  /** Names this session registered (so re-registration keeps a loaded tool declared). */
  #registered = new Set<string>();
  /** Whether `tool_search` was registered and activated. */
  #toolSearchActive = false;
  /** Whether the codemode tool was registered and activated. */
  #codemodeActive = false;
  readonly #autoEnableCodemode: boolean;
  /** What a script's call of an MCP tool resolves to, and its server's namespace, by tool name. */
  #scriptShapes = new Map<string, { outputSchema: unknown; namespace?: ToolNamespace }>();
  /** Declared tools whose description says how scripts call them, with the description they had. */
  #described = new WeakMap<AgentTool, string>();
  /** Who hears server state changes (`/mcp`). */
  #listeners = new Set<() => void>();
  /** Names the `mcp.json` files define: a registered server of the same name is ignored. */
  #configured: Set<string>;
  /** What connections of servers without direct tools wait for (see `deferConnections`). */
  #gate: ConnectGate;
  /** The MCP client module, imported when the first server starts (the SDK loads only then). */
  #runtime: Promise<typeof import("./connection.ts")> | undefined;
  /** Set by {@link close}: a connection that would start after it must not spawn anything. */
  #closed = false;

  constructor(target: McpSessionTarget, options: SessionMcpOptions) {
    this.#target = target;
    this.#options = options;
    const loaded = loadMcpConfig({
      agentDir: options.agentDir,
      cwd: target.cwd,
      projectTrusted: options.projectTrusted,
    });
    this.servers = loaded.servers.map((entry) => ({ entry }));
    this.#configured = new Set(loaded.servers.map((entry) => entry.name));
    this.servers.push(...this.#registeredServers());
    this.configErrors = loaded.errors;
    this.#autoEnableCodemode = loaded.autoEnableCodemode ?? true;
    this.#log = new McpServerLog(join(options.agentDir, "mcp.log"));
    this.#allowed = mcpToolAllowed(options.toolFlags);
    this.#exists = mcpToolExists(options.toolFlags);
    this.#gate = options.deferConnections ? new ConnectGate() : ConnectGate.opened();
  }

  /** The registered servers `mcp.json` does not shadow, as entries. */
  #registeredServers(): ServerState[] {
    return (this.#options.registry?.list() ?? []).filter((server) => !this.#configured.has(server.name)).map((
      server,
    ) => ({
      entry: { name: server.name, config: server.config, source: server.extensionPath, scope: "extension" },
    }));
  }

  /**
   * Servers registered or unregistered during the session connect or close right away; one
   * registered again with another config starts over.
   */
  async #syncRegistered(): Promise<void> {
    const next = new Map(this.#registeredServers().map((server) => [server.entry.name, server]));
    const removed = this.servers.filter((server) =>
      server.entry.scope === "extension" &&
      JSON.stringify(next.get(server.entry.name)?.entry.config) !== JSON.stringify(server.entry.config)
    );
    for (const server of removed) {
      this.servers.splice(this.servers.indexOf(server), 1);
      this.#withdraw(server.entry.name);
    }
    const added = [...next.values()].filter((server) =>
      !this.servers.some((current) => current.entry.name === server.entry.name)
    );
    this.servers.push(...added);
    this.#emitChange();
    await Promise.all(removed.map((server) => server.connection?.close()));
    await Promise.all(added.filter(isEnabled).map((server) => this.#startConnection(server)));
    this.#syncResourceTools();
  }

  /** Starts every enabled server in the background and hooks the session. */
  start(): void {
    const unsubscribe = this.#options.registry?.subscribe(() => void this.#syncRegistered());
    if (unsubscribe) this.#target.addDisposer(unsubscribe);
    this.#updateSection();
    this.#activateDiscovery();
    this.#target.addPromptPreparer(() => this.#beforePrompt());
    // pi exits only once the servers are closed (1.6.0 waits for them too): none is left behind.
    this.#target.addDisposer(() => holdExit(this.close()));
    const enabled = this.servers.filter(isEnabled);
    if (enabled.length === 0) {
      this.#reportProblems();
      return;
    }
    if (!this.#gate.isOpen) this.#openGateWithFirstReply();
    this.#pending = Promise.all(enabled.map((server) => this.#startConnection(server)))
      .then(() => this.#reportProblems())
      .catch((error) => {
        this.#options.notify(
          `MCP failed to load: ${error instanceof Error ? error.message : String(error)}`,
          "error",
        );
      });
  }

  /**
   * Deferred servers start once the first request is out and answered: when its reply ended, or
   * {@link REPLY_STREAMING_MS} into a reply still streaming (a script being written), whichever
   * comes first. A short reply is handled before the MCP SDK loads (its evaluation holds the main
   * thread for a few hundred ms, and the servers' own start takes the CPU); a long one hides both.
   * A `-p` run whose one reply needs no server ends before anything was spawned.
   */
  #openGateWithFirstReply(): void {
    let timer: number | undefined;
    const open = () => {
      off();
      clearTimeout(timer);
      this.#gate.open();
    };
    const off = this.#target.subscribe((event) => {
      if (event.type === "message_start" && event.message?.role === "assistant" && timer === undefined) {
        // Deno's timer id (the SDK's Node types declare another return type).
        timer = setTimeout(open, REPLY_STREAMING_MS) as unknown as number;
        // Waiting for it must not keep pi running.
        Deno.unrefTimer(timer);
      }
      if (event.type === "message_end" && event.message?.role === "assistant") open();
    });
    this.#target.addDisposer(() => {
      off();
      clearTimeout(timer);
    });
  }

  /** Resolves when every start-up connection attempt settled (starting the deferred ones). */
  settled(): Promise<void> {
    this.#gate.open();
    return this.#pending;
  }

  #startConnection(server: ServerState): Promise<void> {
    const ready = (async () => {
      // Direct tools are declared in the first request, which waits for them: those start at once.
      if (!configuredExposures(server.entry).has("direct") && !(await this.#gate.passed())) return;
      if (this.#closed) return;
      // The MCP client (and the SDK) load only now, so runs without servers never pay for them.
      this.#runtime ??= import("./connection.ts");
      const { McpServerConnection, McpOAuthCredentialStore } = await this.#runtime;
      if (this.#closed) return;
      const connection = new McpServerConnection({
        entry: server.entry,
        cwd: this.#target.cwd,
        log: this.#log,
        credentials: new McpOAuthCredentialStore(this.#options.agentDir),
        onChange: () => this.#emitChange(),
        onTools: (current) => {
          server.registering = this.#registerTools(current);
        },
      });
      server.connection = connection;
      await connection.getClient().catch(() => undefined);
      await server.registering;
    })();
    server.ready = ready.catch(() => undefined);
    return ready;
  }

  async #registerTools(connection: McpServerConnection): Promise<void> {
    const server = connection.name;
    const entry = this.servers.find((candidate) => candidate.entry.name === server)?.entry ??
      connection.entry;
    const previous = this.#serverTools.get(server) ?? new Set<string>();
    /** Every name given out this time (hidden tools too), so names stay as 1.6.0 gives them. */
    const named = new Set<string>();
    const current = new Set<string>();
    const namespace = this.#namespaceOf(entry, connection.instructions);
    // As 1.6.0 (and Codex): all tools whose names sanitize alike get the hash suffix.
    const plain = await Promise.all(
      [...new Set(connection.tools.map((tool) => tool.name))].map((tool) => createMcpToolName(server, tool)),
    );
    const definitions: AgentTool[] = [];
    const undeclared: SearchableTool[] = [];
    for (const tool of connection.tools) {
      const owner = `${server}\0${tool.name}`;
      const name = await createMcpToolName(server, tool.name, (candidate) => {
        const existing = this.#toolOwners.get(candidate);
        return (existing !== undefined && existing !== owner) || named.has(candidate) ||
          plain.indexOf(candidate) !== plain.lastIndexOf(candidate);
      });
      this.#toolOwners.set(name, owner);
      named.add(name);
      const exposure = getMcpToolExposure(entry.config, tool.name);
      // Direct tools are declared only when the tool flags allow; the others only need to exist.
      if (exposure === "hidden" || !(exposure === "direct" ? this.#allowed(name) : this.#exists(name))) {
        continue;
      }
      current.add(name);
      const definition = createMcpToolDefinition({
        server,
        tool,
        name,
        exposure,
        getConnection: () => {
          if (!connection.tools.some((offered) => offered.name === tool.name)) {
            throw new Error(`MCP tool "${server}/${tool.name}" is no longer available.`);
          }
          return connection;
        },
        readableResources: () => this.#resourceServers().some((candidate) => candidate.name === server),
      });
      definitions.push(definition);
      this.#scriptShapes.set(name, { outputSchema: mcpResultSchema(tool.outputSchema), namespace });
      if (exposure !== "direct") undeclared.push({ ...definition, namespace });
    }
    this.#serverTools.set(server, current);
    this.#register(definitions, undeclared);
    this.#syncResourceTools();
    // Tools the server withdrew stop being declared and can no longer be loaded.
    const withdrawn = [...previous].filter((name) => !current.has(name));
    for (const name of withdrawn) this.#indirect.delete(name);
    if (withdrawn.length > 0) {
      this.#target.setActiveToolsByName(
        this.#target.getActiveToolNames().filter((n) => !withdrawn.includes(n)),
      );
    }
    // The mcp_servers section changes only when a prompt starts (1.6.0), never in the middle of a run.
  }

  /**
   * Adds `definitions` to the session. Those in `undeclared` are registered without being declared
   * (a new name is taken out of the active set again); one already loaded stays declared.
   */
  #register(definitions: readonly AgentTool[], undeclared: readonly SearchableTool[]): void {
    if (definitions.length === 0) return;
    const fresh = new Set(
      undeclared.filter((tool) => !this.#registered.has(tool.name)).map((tool) => tool.name),
    );
    for (const tool of undeclared) this.#indirect.set(tool.name, tool);
    for (const tool of definitions) {
      this.#registered.add(tool.name);
      // A tool whose exposure became direct is no longer a search candidate.
      if (!undeclared.some((candidate) => candidate.name === tool.name)) this.#indirect.delete(tool.name);
    }
    this.#target.addTools(definitions);
    if (fresh.size > 0) {
      this.#target.setActiveToolsByName(this.#target.getActiveToolNames().filter((name) => !fresh.has(name)));
    }
    this.#describeDeclared();
  }

  /**
   * While codemode is active (1.6.0's default `on` mode), each declared tool a script may call says
   * so: "Codemode: `tools.<id>(args)` resolves to …" ends its description.
   */
  #describeDeclared(): void {
    if (!this.#codemodeActive) return;
    const replacements: AgentTool[] = [];
    for (const tool of this.#target.agent.state.tools) {
      if (
        tool.name === CODEMODE_TOOL_NAME || tool.name === TOOL_SEARCH_TOOL_NAME || this.#described.has(tool)
      ) {
        continue;
      }
      const described = {
        ...tool,
        description: describeScriptCall({ ...tool, outputSchema: this.#outputSchemaOf(tool) }),
      };
      this.#described.set(described, tool.description);
      replacements.push(described);
    }
    if (replacements.length > 0) this.#target.addTools(replacements);
  }

  #outputSchemaOf(tool: AgentTool): unknown {
    return this.#scriptShapes.get(tool.name)?.outputSchema ??
      (tool as AgentTool & { outputSchema?: unknown }).outputSchema;
  }

  /**
   * The tools a codemode script may call, in the order they were registered (as 1.6.0 lists them in
   * `ALL_TOOLS`): the declared tools of the session, then the MCP tools, declared or not.
   */
  #callableTools(): CallableTool[] {
    const active = new Map(this.#target.agent.state.tools.map((tool) => [tool.name, tool]));
    const names = [
      ...[...active.keys()].filter((name) => !this.#registered.has(name)),
      ...[...this.#registered].filter((name) => active.has(name) || this.#indirect.has(name)),
    ];
    return names.map((name) => {
      const declared = active.get(name);
      const tool = declared ?? (this.#indirect.get(name) as unknown as AgentTool);
      return {
        tool,
        description: (declared && this.#described.get(declared)) ?? tool.description,
        guidelines: (tool as AgentTool & { promptGuidelines?: string[] }).promptGuidelines,
        outputSchema: this.#outputSchemaOf(tool),
        namespace: this.#scriptShapes.get(name)?.namespace ?? this.#indirect.get(name)?.namespace,
      };
    });
  }

  /** Resolves when the servers a codemode script of `reach` may call connected or failed. */
  async #readyFor(reach: ScriptReach): Promise<void> {
    const reached = this.servers.flatMap((server) =>
      isEnabled(server) && server.ready && reachesNamespace(reach, mcpNamespace(server.entry.name))
        ? [server.ready]
        : []
    );
    // A script that names a server needs it now, even before the first reply began.
    if (reached.length > 0) this.#gate.open();
    await Promise.all(reached);
  }

  /** A server's namespace as tool search and codemode see it. */
  #namespaceOf(entry: McpServerEntry, instructions: string | undefined): ToolNamespace {
    const description = entry.config.description?.trim();
    return {
      name: mcpNamespace(entry.name),
      aliases: [entry.name],
      ...(description ? { description } : {}),
      ...(instructions ? { instructions } : {}),
    };
  }

  /** Enabled, non-hidden servers with resources: what the resource tools reach. */
  #resourceServers(): McpServerConnection[] {
    return this.servers.flatMap((server) =>
      server.connection?.hasResources && isEnabled(server) &&
        (server.entry.config.exposure ?? "codemode") !== "hidden"
        ? [server.connection]
        : []
    );
  }

  /**
   * The resource tools take the widest exposure of the servers they reach (1.6.0): `direct` declares
   * them, `codemode` or `deferred` registers them for `tool_search` to load.
   */
  #syncResourceTools(): void {
    const exposures = new Set(
      this.servers.flatMap((server) =>
        server.connection?.hasResources && isEnabled(server)
          ? [server.entry.config.exposure ?? "codemode"]
          : []
      ),
    );
    const next = (["direct", "codemode", "deferred"] as const).find((exposure) => exposures.has(exposure));
    if (next === undefined || next === this.#resourceExposure) return;
    const wasDirect = this.#resourceExposure === "direct";
    this.#resourceExposure = next;
    const tools = createMcpResourceTools(() => this.#resourceServers()).filter((tool) =>
      next === "direct" ? this.#allowed(tool.name) : this.#exists(tool.name)
    );
    this.#register(tools, next === "direct" ? [] : tools);
    if (wasDirect) {
      const names = new Set(tools.map((tool) => tool.name));
      this.#target.setActiveToolsByName(this.#target.getActiveToolNames().filter((name) => !names.has(name)));
    }
  }

  #updateSection(): void {
    const section = renderServersSection(
      this.servers.map((server) => ({ entry: server.entry, instructions: server.connection?.instructions })),
    );
    this.#target.setPromptSection(MCP_SERVERS_SECTION, section);
  }

  /**
   * The first prompt waits for servers with direct tools (they must be declared in its request),
   * but at most `startupWaitMs`; every prompt gets the section as the servers are now.
   */
  async #beforePrompt(): Promise<void> {
    if (!this.#waitedForStartup) {
      this.#waitedForStartup = true;
      const ready = this.servers.flatMap((server) =>
        isEnabled(server) && configuredExposures(server.entry).has("direct") && server.ready
          ? [server.ready]
          : []
      );
      if (ready.length > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finished = await Promise.race([
          Promise.all(ready).then(() => true),
          new Promise<boolean>((done) => {
            timer = setTimeout(() => done(false), this.#options.startupWaitMs ?? DEFAULT_STARTUP_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (!finished) {
          this.#options.notify(
            "MCP servers are still connecting; their tools become available once connected.",
            "info",
          );
        }
      }
    }
    this.#updateSection();
  }

  /**
   * Activates what reaches the tools that are not declared, from the configuration so it is there
   * before the servers connect (1.6.0): the codemode tool for `codemode` tools (unless
   * `autoEnableCodemode` is false), `tool_search` for `deferred` ones. Warns once when neither is
   * active.
   */
  #activateDiscovery(): void {
    const exposures = new Set<McpExposure>();
    for (const server of this.servers) {
      if (isEnabled(server)) {
        for (const exposure of configuredExposures(server.entry)) exposures.add(exposure);
      }
    }
    const needsToolSearch = exposures.has("deferred");
    const needsCodemode = exposures.has("codemode");
    if (!needsToolSearch && !needsCodemode) return;
    const activate: AgentTool[] = [];
    const codemodeAvailable = this.#options.codemode !== false;
    // The tool flags choose these two like any other tool (`--tools read,codemode`, `--no-tools`).
    if (
      needsCodemode && codemodeAvailable && this.#autoEnableCodemode && !this.#codemodeActive &&
      this.#allowed(CODEMODE_TOOL_NAME)
    ) {
      this.#codemodeActive = true;
      activate.push(createCodemodeTool({
        // A script waits only for the servers it may reach (1.6.0).
        ready: (reach) => this.#readyFor(reach),
        onDispose: (hook) => this.#target.addDisposer(hook),
        callableTools: () => this.#callableTools(),
        readStore: () => readCodemodeStore(this.#target.sessionManager.getBranch()),
        appendStore: (data) => this.#target.appendCustomEntry(CODEMODE_STORE_ENTRY_TYPE, data),
      }));
    }
    if (
      needsToolSearch && this.#options.toolSearch !== false && !this.#toolSearchActive &&
      this.#allowed(TOOL_SEARCH_TOOL_NAME)
    ) {
      this.#toolSearchActive = true;
      activate.push(createToolSearchTool({
        ready: () => this.settled(),
        candidates: () => {
          const active = new Set(this.#target.getActiveToolNames());
          return [...this.#indirect.values()].filter((tool) => !active.has(tool.name));
        },
        load: (names) => {
          this.#target.setActiveToolsByName([...this.#target.getActiveToolNames(), ...names]);
          this.#describeDeclared();
        },
      }));
    }
    if (activate.length > 0) this.#target.addTools(activate);
    this.#describeDeclared();
    // 1.6.0 is content once either tool is active: each reaches every undeclared tool.
    if (this.#codemodeActive || this.#toolSearchActive) return;
    const reason = needsCodemode && codemodeAvailable && !this.#autoEnableCodemode
      ? " (autoEnableCodemode is false)"
      : "";
    this.#options.notify(
      `MCP tools are only reachable from the codemode or tool_search tool, but neither is active${reason}; they cannot be called.`,
      "warning",
    );
  }

  /** One message for everything that needs the user after start-up (1.6.0's wording). */
  #reportProblems(): void {
    const lines = this.configErrors.map((error) => `config: ${error}`);
    for (const server of this.servers) {
      const connection = server.connection;
      if (isEnabled(server) && connection?.state === "failed") {
        lines.push(`${server.entry.name}: failed: ${firstLine(connection.error ?? "unknown error")}`);
      }
      if (isEnabled(server) && connection?.state === "needs-auth") {
        lines.push(`${server.entry.name}: needs sign-in`);
      }
    }
    if (lines.length === 0) return;
    // Outside the TUI there is no `/mcp` to name.
    const hint = this.#options.mcpCommand ? "\nRun /mcp to fix." : "";
    this.#options.notify(
      `MCP servers need attention:\n${lines.map((line) => `  ${line}`).join("\n")}${hint}`,
      "warning",
    );
  }

  /** Closes every connection (stdio servers are stopped); servers still waiting to start never start. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#gate.shut();
    await Promise.all(this.servers.map((server) => server.connection?.close()));
  }

  /**
   * Turns a server on or off (`/mcp`): saved to its `mcp.json` (or, `inProject`, as an override in
   * the project's), then connected or closed with its tools withdrawn. A registered server changes
   * for this session only. The error message when the file could not be updated.
   */
  async setEnabled(name: string, enabled: boolean, inProject = false): Promise<string | undefined> {
    const server = this.servers.find((candidate) => candidate.entry.name === name);
    if (!server) return `No MCP server named "${name}".`;
    const failed = this.#saveConfig(server, { enabled }, inProject);
    if (failed) return failed;
    if (!enabled) {
      const connection = server.connection;
      server.connection = undefined;
      this.#withdraw(name);
      this.#emitChange();
      await connection?.close();
      return undefined;
    }
    this.#emitChange();
    await this.#startConnection(server).catch(() => undefined);
    this.#syncResourceTools();
    return undefined;
  }

  /** Changes a server's exposure (`/mcp`), saved as {@link setEnabled} saves; its tools are registered again. */
  async setExposure(name: string, exposure: McpExposure): Promise<string | undefined> {
    const server = this.servers.find((candidate) => candidate.entry.name === name);
    if (!server) return `No MCP server named "${name}".`;
    const failed = this.#saveConfig(server, { exposure });
    if (failed) return failed;
    const before = this.#serverTools.get(name) ?? new Set<string>();
    if (server.connection?.state === "connected") await this.#registerTools(server.connection);
    this.#syncResourceTools();
    // Tools no longer exposed directly leave the declared set.
    if (exposure !== "direct") {
      this.#target.setActiveToolsByName(
        this.#target.getActiveToolNames().filter((tool) => !before.has(tool)),
      );
    }
    this.#activateDiscovery();
    this.#emitChange();
    return undefined;
  }

  #saveConfig(server: ServerState, patch: { enabled?: boolean; exposure?: McpExposure }, inProject = false) {
    const projectConfig = join(this.#target.cwd, ".pi", "mcp.json");
    const override = inProject ? projectConfig : server.entry.override;
    const entry = override ? { ...server.entry, override } : server.entry;
    if (entry.scope !== "extension") {
      try {
        updateMcpServerConfig(entry.override ?? entry.source, entry.name, patch, {
          override: entry.override !== undefined,
        });
      } catch (error) {
        return `Could not update ${entry.override ?? entry.source}: ${
          error instanceof Error ? error.message : String(error)
        }`;
      }
    }
    server.entry = { ...entry, config: { ...entry.config, ...patch } };
    return undefined;
  }

  /** A closed server's tools leave the declared set and can no longer be loaded. */
  #withdraw(name: string): void {
    const names = this.#serverTools.get(name) ?? new Set<string>();
    this.#serverTools.delete(name);
    for (const tool of names) this.#indirect.delete(tool);
    this.#target.setActiveToolsByName(this.#target.getActiveToolNames().filter((tool) => !names.has(tool)));
    this.#syncResourceTools();
  }

  /** The agent folder (`mcp-auth.json`, `mcp.json`). */
  get agentDir(): string {
    return this.#options.agentDir;
  }

  /** Calls `listener` on every server state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emitChange(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** Each session's MCP, for `/mcp` (only ever filled once MCP loaded). */
const bySession = new WeakMap<object, SessionMcp>();

/** The MCP of a session started with {@link startSessionMcp}, if any. */
export function sessionMcpOf(target: object): SessionMcp | undefined {
  return bySession.get(target);
}

/** Reads the MCP configuration for `target` and starts its servers; undefined when none is configured. */
export function startSessionMcp(target: McpSessionTarget, options: SessionMcpOptions): SessionMcp {
  const mcp = new SessionMcp(target, options);
  bySession.set(target, mcp);
  mcp.start();
  return mcp;
}
