/**
 * The one place the CLI builds a runtime for a folder (CLI-09): project trust, settings,
 * credentials, models and resources ({@link createAgentSessionServices}), the resource-loader
 * options and the model scope from the flags, the session options, then the session. The first
 * session and every later one (RPC `new_session`, `switch_session`, `fork`) come from here, as the
 * reference's `createRuntime` does.
 *
 * @module
 */
import { join, resolve } from "../util/path.ts";
import { ModelRuntime } from "../config/model_runtime.ts";
import { resolveModelScope } from "../config/model_resolver.ts";
import { resolveProjectTrust } from "../config/project_trust.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { formatNoModelsAvailableMessage } from "../core/auth_guidance.ts";
import {
  resolvePackageExtensions,
  resolveTemporaryPackageExtensions,
  type TemporaryPackageExtensions,
} from "../core/package_extensions.ts";
import {
  attachExtensionHost,
  type ExtensionHost,
  type ExtensionSources,
  hasExtensionSources,
  loadExtensionHost,
} from "../core/extension_host.ts";
import { applyExtensionProviders } from "../core/extension_providers.ts";
import { isBuiltinEnabled, markLlamaEnabled } from "../resources/builtin_extensions.ts";
import { postSessionNotice } from "../core/session_notices.ts";
import { readEnv } from "../util/env.ts";
import { existsSync } from "../util/fs.ts";
import { red, yellow } from "../util/style.ts";
import {
  type AgentSessionServices,
  createAgentSessionFromServices,
  type CreateAgentSessionRuntimeFactory,
  type CreateAgentSessionRuntimeOptions,
  type CreateAgentSessionRuntimeResult,
  createAgentSessionServices,
} from "../core/session_runtime.ts";
import type { CliArgs, CliDiagnostic } from "./args.ts";
import { catalogScope, scopeResolvesModel } from "./catalog_scope.ts";
import { CliExit } from "./cli_error.ts";
import type { CliIO } from "./cli_io.ts";
import { buildSessionOptions } from "./session_options.ts";

/** Settings problems as warnings that say where they were found. */
export function settingsDiagnostics(settings: SettingsManager, context: string): CliDiagnostic[] {
  return settings.drainErrors().map(({ scope, error }) => ({
    type: "warning" as const,
    message: `(${context}, ${scope} settings) ${error.message}`,
  }));
}

/** Non-package values of `--skill`, `--prompt-template`, … are resolved against the start cwd. */
function resolveCliPaths(cwd: string, paths: string[] | undefined): string[] | undefined {
  const remote = ["npm:", "git:", "github:", "http:", "https:", "ssh:"];
  return paths?.map((value) => remote.some((p) => value.trim().startsWith(p)) ? value : resolve(cwd, value));
}

/**
 * The one place the CLI builds a runtime: services for a cwd, the model scope and session options
 * from the flags, then the session. The first session and every later one (RPC `new_session`,
 * `switch_session`, `fork`) come from here, as the reference's `createRuntime` does.
 */
export function runtimeFactory(
  run: { io: CliIO; parsed: CliArgs; cwd: string; appMode?: string },
  startupSettings: SettingsManager,
): RuntimeFactory {
  const { io, parsed, cwd } = run;
  const resourceLoaderOptions = {
    additionalSkillPaths: resolveCliPaths(cwd, parsed.skills),
    additionalPromptTemplatePaths: resolveCliPaths(cwd, parsed.promptTemplates),
    noSkills: parsed.noSkills,
    noPromptTemplates: parsed.noPromptTemplates,
    noContextFiles: parsed.noContextFiles,
    systemPrompt: parsed.systemPrompt,
    appendSystemPrompt: parsed.appendSystemPrompt,
    warn: (message: string) => io.stderr(`${message}\n`),
  };
  // One credential store for the whole process, so an --api-key given once applies to later sessions.
  let first: AgentSessionServices | undefined;
  // Answers to the start-up trust question, so a "this session only" choice holds for /new, /resume, /fork.
  const answeredTrust = new Map<string, boolean>();
  // `-e npm:…` / `-e git:…` one-off packages, installed into the temporary cache once per process: their
  // extensions load with the other extensions, their skills and prompt templates with the resources.
  let temporary: TemporaryPackageExtensions | undefined;
  const prepare = async (options: CreateAgentSessionRuntimeOptions): Promise<PreparedRuntime> => {
    // Project trust (-a/--approve, -na/--no-approve, trust.json, defaultProjectTrust) decides whether
    // the folder's own .pi/settings.json applies. Only the interactive mode asks, before its screen starts.
    let projectTrusted: boolean;
    try {
      projectTrusted = answeredTrust.get(options.cwd) ?? await resolveProjectTrust({
        cwd: options.cwd,
        agentDir: options.agentDir,
        flag: parsed.projectTrustOverride,
        defaultProjectTrust: startupSettings.getDefaultProjectTrust(),
        // As in 1.6.0, only the first session of a `pi` in a terminal asks.
        interactive: run.appMode === "interactive" && first === undefined,
        ask: async (cwd) => {
          const { askProjectTrustAtStartup } = await import("../modes/interactive/startup_trust_prompt.ts");
          const answer = await askProjectTrustAtStartup(cwd, { theme: startupSettings.getTheme() });
          answeredTrust.set(options.cwd, answer.trusted);
          return answer;
        },
      });
    } catch (error) {
      // A broken trust.json: its message names the file and what is wrong.
      throw new CliExit(`Error: ${(error as Error).message}`);
    }
    if (!temporary) {
      temporary = await resolveTemporaryPackageExtensions(parsed.extensions, {
        cwd: options.cwd,
        agentDir: options.agentDir,
        npmCommand: startupSettings.getNpmCommand(),
      });
      for (const warning of temporary.warnings) io.stderr(`${yellow(`Warning: ${warning}`)}\n`);
    }
    // The first runtime loads only the built-in providers the flags can resolve to (start-up time).
    const later = first !== undefined;
    // A resumed session's model (its last model_change or answer) scopes the catalog without --model.
    const existing = options.sessionManager.buildSessionContext();
    const sessionModel = existing.messages.length > 0 ? existing.model : null;
    const scope = later ? undefined : catalogScope(parsed, sessionModel);
    const services = await createAgentSessionServices({
      cwd: options.cwd,
      agentDir: options.agentDir,
      // One model runtime for the process, as in pi 1.6.0 (an --api-key stays across /new).
      modelRuntime: first?.modelRuntime ?? await ModelRuntime.create({
        authPath: join(options.agentDir, "auth.json"),
        modelsPath: join(options.agentDir, "models.json"),
        builtinProviders: scope,
      }),
      settingsManager: SettingsManager.create(options.cwd, options.agentDir, { projectTrusted }),
      resourceLoaderOptions: { ...resourceLoaderOptions, temporaryPackageResources: temporary.resources },
    });
    first ??= services;
    // llama.cpp (1.6.0's built-in `llama.cpp`): its cached models, when a router is configured.
    if (
      llamaMayBeConfigured(services.modelRegistry.authStorage) &&
      isBuiltinEnabled(
        "llama.cpp",
        runExtensionSources(run, options, projectTrusted, services.settingsManager),
      )
    ) {
      const { registerCachedLlamaModels } = await import("../extensions/builtin/llama_cpp/provider.ts");
      registerCachedLlamaModels(services.modelRegistry, options.agentDir);
    }
    const diagnostics: CliDiagnostic[] = [
      ...services.diagnostics, // broken auth.json / models.json, named with file and line
      ...settingsDiagnostics(services.settingsManager, "runtime creation"),
    ];
    const extensions = await loadRunExtensions(
      run,
      options,
      projectTrusted,
      services.settingsManager,
      temporary,
    );
    // Providers the extensions registered while loading join the models before --model is resolved.
    if (extensions) {
      for (const message of applyExtensionProviders(extensions.runtime, services.modelRegistry)) {
        diagnostics.push({ type: "error", message });
      }
    }
    // Registered extension flags take their command-line values; any other unknown --flag is an error.
    const registered = new Map((extensions?.flags() ?? []).map((flag) => [flag.name, flag]));
    const unknown: string[] = [];
    for (const [name, value] of parsed.unknownFlags) {
      const flag = registered.get(name);
      if (!flag) unknown.push(name);
      else if (flag.type === "boolean") extensions!.setFlagValue(name, true);
      else if (typeof value === "string") extensions!.setFlagValue(name, value);
      else diagnostics.push({ type: "error", message: `Extension flag "--${name}" requires a value` });
    }
    if (unknown.length > 0) {
      diagnostics.push({
        type: "error",
        message: `Unknown option${unknown.length === 1 ? "" : "s"}: ${
          unknown.map((n) => `--${n}`).join(", ")
        }`,
      });
    }
    // Virtual models the extensions registered while loading join the catalog before --model is resolved.
    for (const error of extensions?.runtime.virtualModels?.bind(services.modelRegistry) ?? []) {
      diagnostics.push({
        type: "error",
        message: `Extension "${error.extensionPath}" error: ${error.error}`,
      });
    }
    const patterns = parsed.models ?? services.settingsManager.getEnabledModels();
    // RPC serves more than one prompt: extensions may read ctx.modelRegistry at any time, and a later
    // session may restore any model, so those see the whole catalog from the start.
    const rpcNeedsAll = run.appMode === "rpc" && (extensions !== undefined || later);
    if (
      (patterns && patterns.length > 0) || rpcNeedsAll ||
      !scopeResolvesModel(parsed, services.modelRegistry, sessionModel)
    ) {
      // Scopes search every model, and so does a --model the loaded providers cannot settle.
      await services.modelRuntime.loadAllBuiltinModels();
    }
    const scopedModels = patterns && patterns.length > 0
      ? await resolveModelScope(patterns, services.modelRegistry)
      : [];
    const hasExisting = options.sessionManager.buildSessionContext().messages.length > 0;
    const built = buildSessionOptions(
      parsed,
      scopedModels,
      hasExisting,
      services.modelRegistry,
      services.settingsManager,
    );
    diagnostics.push(...built.diagnostics);
    if (parsed.apiKey) {
      if (!built.options.model) {
        diagnostics.push({
          type: "error",
          message: "--api-key requires a model to be specified via --model, --provider/--model, or --models",
        });
      } else {
        await services.modelRuntime.setRuntimeApiKey(built.options.model.provider, parsed.apiKey);
      }
    }
    // Without any usable model the session would have none: say so (pi 1.6.0's start-up warning).
    if (!built.options.model && services.modelRegistry.getAvailable().length === 0) {
      diagnostics.push({ type: "warning", message: formatNoModelsAvailableMessage() });
    }
    return { services, diagnostics, built, extensions };
  };
  const create = async (
    options: CreateAgentSessionRuntimeOptions,
  ): Promise<CreateAgentSessionRuntimeResult> => {
    const { services, diagnostics, built, extensions } = await prepare(options);
    const extensionTools = extensions?.sessionTools() ?? [];
    const created = await createAgentSessionFromServices({
      services,
      sessionManager: options.sessionManager,
      ...built.options,
      ...(extensionTools.length > 0 ? { customTools: extensionTools } : {}),
    });
    if (extensions) attachExtensionHost(created.session, extensions);
    // MCP servers (1.6.0's built-in `mcp`): nothing of MCP loads unless an mcp.json exists.
    const projectTrusted = services.settingsManager.isProjectTrusted();
    const mcpFiles = [join(options.agentDir, "mcp.json"), join(options.cwd, ".pi", "mcp.json")];
    // `builtin:mcp` is on by default; `-builtin:mcp` in the settings' `extensions` turns it off.
    const mcpEnabled = isBuiltinEnabled(
      "mcp",
      runExtensionSources(run, options, projectTrusted, services.settingsManager),
    );
    // Servers extensions registered with pi.registerMcpServer() (1.6.0) count as configured too.
    const registry = extensions?.runtime.mcpServers;
    const startMcp = async () => {
      const { startSessionMcp } = await import("../extensions/builtin/mcp/session_mcp.ts");
      startSessionMcp(created.session, {
        ...(registry ? { registry } : {}),
        agentDir: options.agentDir,
        projectTrusted,
        // The interactive mode has /mcp, which the attention report names (1.6.0's TUI wording).
        mcpCommand: run.appMode === "interactive",
        // Outside the TUI, servers without direct tools start once the first reply is in (or a
        // script needs them): their start would only compete with the first request.
        deferConnections: run.appMode !== "interactive",
        toolFlags: { tools: parsed.tools, excludeTools: parsed.excludeTools, noTools: parsed.noTools },
        toolSearch: isBuiltinEnabled(
          "tool-search",
          runExtensionSources(run, options, projectTrusted, services.settingsManager),
        ),
        codemode: isBuiltinEnabled(
          "codemode",
          runExtensionSources(run, options, projectTrusted, services.settingsManager),
        ),
        // The TUI shows them in its chat once it is up (stderr would tear its screen).
        notify: run.appMode === "interactive"
          ? (message, level) => postSessionNotice(created.session, message, level)
          : (message, level) =>
            io.stderr(`${level === "info" ? message : (level === "error" ? red : yellow)(message)}\n`),
      });
    };
    if (!parsed.noMcp && mcpEnabled) {
      if (
        existsSync(mcpFiles[0]) || (projectTrusted && existsSync(mcpFiles[1])) ||
        (registry?.list().length ?? 0) > 0
      ) {
        await startMcp();
      } else if (registry) {
        // The first server an extension registers later starts MCP (and is connected by it); a
        // prompt waits for that start, then for the servers as at start-up.
        let starting: Promise<void> | undefined;
        created.session.addPromptPreparer(async () => await starting);
        const off = registry.subscribe(() => {
          off();
          starting = startMcp();
        });
      }
    }
    if (
      isBuiltinEnabled(
        "llama.cpp",
        runExtensionSources(run, options, projectTrusted, services.settingsManager),
      )
    ) {
      markLlamaEnabled(created.session);
      // The interactive mode asks the router for its models in the background, as 1.6.0's start-up
      // catalog refresh does; the other modes use the cached ones.
      if (
        run.appMode === "interactive" && first === services && !readEnv("PI_OFFLINE") &&
        llamaMayBeConfigured(services.modelRegistry.authStorage)
      ) {
        void import("../extensions/builtin/llama_cpp/provider.ts").then((llama) =>
          llama.refreshLlamaModelsQuietly(services.modelRegistry, options.agentDir)
        );
      }
    }
    if (created.session.model && (parsed.thinking !== undefined || built.cliThinkingFromModel)) {
      // Re-applied so the level is clamped to the model and recorded in the session.
      created.session.setThinkingLevel(created.session.thinkingLevel);
    }
    return { ...created, services, diagnostics };
  };
  return { prepare, create };
}

/** Services and resolved flags for a cwd, before a session exists (all `--help` and `--list-models` need). */
export interface PreparedRuntime {
  services: AgentSessionServices;
  diagnostics: CliDiagnostic[];
  built: ReturnType<typeof buildSessionOptions>;
  /** The run's extensions, when any are configured. */
  extensions?: ExtensionHost;
}

/**
 * Loads the extensions of `-e`, the settings and the extension folders (project ones only when
 * trusted), when there are any. A failed one is reported on stderr with 1.6.0's text and the
 * run goes on without it (1.6.0 stops; see docs/differences.md).
 */
async function loadRunExtensions(
  run: { io: CliIO; parsed: CliArgs },
  options: CreateAgentSessionRuntimeOptions,
  projectTrusted: boolean,
  settings: SettingsManager,
  temporary: TemporaryPackageExtensions,
): Promise<ExtensionHost | undefined> {
  const sources = {
    ...runExtensionSources(run, options, projectTrusted, settings),
    temporaryPaths: temporary.paths,
    packagePaths: run.parsed.noExtensions ? [] : await resolvePackageExtensions({
      cwd: options.cwd,
      agentDir: options.agentDir,
      globalPackages: settings.getGlobalSettings().packages,
      projectPackages: projectTrusted ? settings.getProjectSettings().packages : undefined,
    }),
  };
  if (!hasExtensionSources(sources)) return undefined;
  // The modes' values of pi-coding-agent (CustomEditor …): src/extensions cannot import them itself.
  (await import("../modes/extension_exports_setup.ts")).registerModeExtensionExports();
  const timeout = Number(readEnv("PI_EXTENSION_LOAD_TIMEOUT_MS"));
  const host = await loadExtensionHost(sources, {
    factoryTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
  });
  for (const warning of host.warnings) run.io.stderr(`${yellow(`Warning: ${warning}`)}\n`);
  for (const { path, error } of host.loadErrors) {
    run.io.stderr(`${red(`Error: Failed to load extension "${path}": ${error}`)}\n`);
  }
  return host;
}

/** The `-e` entries and the settings' `extensions` lists of a run. */
function runExtensionSources(
  run: { parsed: CliArgs },
  options: CreateAgentSessionRuntimeOptions,
  projectTrusted: boolean,
  settings: SettingsManager,
): ExtensionSources {
  return {
    cwd: options.cwd,
    agentDir: options.agentDir,
    projectTrusted,
    cliPaths: run.parsed.extensions,
    globalSettingsPaths: settings.getGlobalSettings().extensions,
    projectSettingsPaths: projectTrusted ? settings.getProjectSettings().extensions : undefined,
    noExtensions: run.parsed.noExtensions,
    // Only the user's own settings may grant or withhold an extension's permissions.
    extensionPermissions: settings.getGlobalSettings().extensionPermissions,
  };
}

/**
 * Whether a llama.cpp router may be configured (a stored `llama.cpp` credential or `LLAMA_BASE_URL`);
 * only then does start-up load the built-in llama.cpp extension's code.
 */
function llamaMayBeConfigured(
  store: { has(provider: string): boolean; env?: Readonly<Record<string, string>> },
) {
  return store.has("llama.cpp") || Boolean(store.env?.LLAMA_BASE_URL || readEnv("LLAMA_BASE_URL"));
}

/** {@link runtimeFactory}'s two stages: `create` is the runtime factory RPC mode reuses. */
export interface RuntimeFactory {
  prepare(options: CreateAgentSessionRuntimeOptions): Promise<PreparedRuntime>;
  create: CreateAgentSessionRuntimeFactory;
}
