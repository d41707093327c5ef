/**
 * What `pi` does between parsing its arguments and handing off to a mode — the order of the
 * reference's `main()` (CLI-09): version, export, flag checks, session selection, settings,
 * credentials, models and resources, `--help`, `--list-models`, stdin and `@file`s, diagnostics,
 * then the session and the mode. Early stops are {@link CliExit}s, turned into exit codes here.
 *
 * One deliberate difference (G1): `--version`, `--help` and `--list-models` write to stdout even
 * when stdin is not a terminal; the reference sends them to stderr then.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";
import { AuthStorage } from "../config/auth_storage.ts";
import { ModelRegistry } from "../config/model_registry.ts";
import { resolveModelScope, type ScopedModel } from "../config/model_resolver.ts";
import { APP_NAME, getAgentDir, isTruthyEnvFlag, resolveSessionDir } from "../config/paths.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { formatNoApiKeyFoundMessage } from "../core/auth_guidance.ts";
import { createAgentSession } from "../core/sdk.ts";
import { DefaultResourceLoader } from "../resources/resource_loader.ts";
import { InvalidSessionFileError } from "../session/session_file.ts";
import { VERSION } from "../version.ts";
import { type CliArgs, type CliDiagnostic, parseArgs } from "./args.ts";
import { CliExit } from "./cli_error.ts";
import type { CliIO } from "./cli_io.ts";
import { processFileArguments } from "./file_processor.ts";
import { buildInitialMessage, type InitialMessage } from "./initial_message.ts";
import { buildSessionOptions } from "./session_options.ts";
import { createSessionManager, missingSessionCwdMessage, validateForkFlags } from "./session_target.ts";
import { dim, red, yellow } from "./style.ts";

const PACKAGE_COMMANDS = new Set(["install", "remove", "uninstall", "update", "list", "config"]);

/** How the run will interact: a mode of the reference's `resolveAppMode`. */
export type AppMode = "interactive" | "print" | "json" | "rpc";

/** Environment of one CLI run (defaults: the process's cwd, agent dir and environment). */
export interface MainFlowContext {
  io: CliIO;
  cwd?: string;
  agentDir?: string;
}

/** `--mode rpc|json` wins; `-p` or a non-terminal stdin means print; otherwise interactive. */
export function resolveAppMode(args: CliArgs, stdinIsTerminal: boolean): AppMode {
  if (args.mode === "rpc") return "rpc";
  if (args.mode === "json") return "json";
  if (args.print || !stdinIsTerminal) return "print";
  return "interactive";
}

function envGet(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** A diagnostic line as the reference colours and prefixes it. */
export function formatDiagnostic(d: CliDiagnostic): string {
  if (d.type === "error") return red(`Error: ${d.message}`);
  if (d.type === "warning") return yellow(`Warning: ${d.message}`);
  return dim(d.message);
}

/** Non-package values of `--skill`, `--prompt-template`, … are resolved against the start cwd. */
function resolveCliPaths(cwd: string, paths: string[] | undefined): string[] | undefined {
  const remote = ["npm:", "git:", "github:", "http:", "https:", "ssh:"];
  return paths?.map((value) => remote.some((p) => value.trim().startsWith(p)) ? value : resolve(cwd, value));
}

function settingsDiagnostics(settings: SettingsManager, context: string): CliDiagnostic[] {
  return settings.drainErrors().map(({ scope, error }) => ({
    type: "warning" as const,
    message: `(${context}, ${scope} settings) ${error.message}`,
  }));
}

/** Opens the session the flags select; an unreadable session file is a plain error, never a stack trace. */
async function openSession(
  parsed: CliArgs,
  options: Parameters<typeof createSessionManager>[1],
): ReturnType<typeof createSessionManager> {
  try {
    return await createSessionManager(parsed, options);
  } catch (error) {
    if (error instanceof InvalidSessionFileError) throw new CliExit(`Error: ${error.message}`);
    throw error;
  }
}

/** Runs pi for `argv` and resolves with the exit code; never calls `Deno.exit`. */
export async function runMain(argv: string[], ctx: MainFlowContext): Promise<number> {
  const { io } = ctx;
  // Lines the reference prints with console.log: stdout when interactive, stderr otherwise.
  let log = io.stderr;
  try {
    return await mainSteps(argv, ctx, (write) => (log = write));
  } catch (error) {
    if (!(error instanceof CliExit)) throw error;
    if (error.message) {
      if (error.isError) io.stderr(`${red(error.message)}\n`);
      else log(`${error.message}\n`);
    }
    return error.exitCode;
  }
}

async function mainSteps(
  argv: string[],
  ctx: MainFlowContext,
  setLog: (write: (text: string) => void) => void,
): Promise<number> {
  const { io } = ctx;
  if (argv.includes("--offline") || isTruthyEnvFlag(envGet("PI_OFFLINE"))) {
    Deno.env.set("PI_OFFLINE", "1");
    Deno.env.set("PI_SKIP_VERSION_CHECK", "1");
  }

  // The reference's package commands (CLI-09, PKG-01…) need its package manager, which this build does
  // not have yet; say so instead of sending "install …" to the model as a prompt.
  if (PACKAGE_COMMANDS.has(argv[0] ?? "")) {
    throw new CliExit(
      `Error: "${APP_NAME} ${argv[0]}" is not available in this build (no package manager yet)`,
    );
  }

  const parsed = parseArgs(argv);
  for (const d of parsed.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  if (parsed.diagnostics.some((d) => d.type === "error")) return 1;

  let appMode = resolveAppMode(parsed, io.stdinIsTerminal());
  const log = appMode === "interactive" ? io.stdout : io.stderr;
  setLog(log);

  if (parsed.version) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (parsed.export) {
    if (!existsSync(parsed.export)) throw new CliExit(`Error: File not found: ${parsed.export}`);
    throw new CliExit("Error: HTML export is not available in this build");
  }
  if (parsed.mode === "rpc" && parsed.fileArgs.length > 0) {
    throw new CliExit("Error: @file arguments are not supported in RPC mode");
  }
  validateForkFlags(parsed);

  const cwd = ctx.cwd ?? Deno.cwd();
  const agentDir = ctx.agentDir ?? getAgentDir();
  const startupSettings = SettingsManager.create(cwd, agentDir);
  for (const d of settingsDiagnostics(startupSettings, "startup session lookup")) {
    io.stderr(`${formatDiagnostic(d)}\n`);
  }
  const sessionDir = resolveSessionDir(parsed.sessionDir, startupSettings.getSessionDir());
  const sessionManager = await openSession(parsed, {
    cwd,
    sessionDir,
    agentDir,
    log,
    confirm: async (question) => {
      log(`${question} [y/N] `);
      const answer = await io.readLine();
      if (answer === undefined) return undefined;
      return answer.toLowerCase() === "y" || answer.toLowerCase() === "yes";
    },
  });
  // Malformed lines and a torn last line are skipped, never deleted; say so.
  for (const warning of sessionManager.getLoadWarnings()) io.stderr(`${yellow(`Warning: ${warning}`)}\n`);
  const missingCwd = missingSessionCwdMessage(sessionManager, cwd);
  // The reference asks in interactive mode; without a TUI here it is an error in every mode.
  if (missingCwd) throw new CliExit(missingCwd);

  // Runtime services are bound to the session's cwd, which --session may have changed.
  const runtimeCwd = sessionManager.getCwd();
  const authStorage = AuthStorage.create(join(agentDir, "auth.json"));
  const settingsManager = SettingsManager.create(runtimeCwd, agentDir);
  const modelRegistry = ModelRegistry.create(authStorage, join(agentDir, "models.json"));
  const resourceLoader = new DefaultResourceLoader({
    cwd: runtimeCwd,
    agentDir,
    settings: settingsManager,
    additionalSkillPaths: resolveCliPaths(cwd, parsed.skills),
    additionalPromptTemplatePaths: resolveCliPaths(cwd, parsed.promptTemplates),
    noSkills: parsed.noSkills,
    noPromptTemplates: parsed.noPromptTemplates,
    noContextFiles: parsed.noContextFiles,
    systemPrompt: parsed.systemPrompt,
    appendSystemPrompt: parsed.appendSystemPrompt,
    warn: (message) => io.stderr(`${message}\n`),
  });
  await resourceLoader.reload();

  const diagnostics: CliDiagnostic[] = [...settingsDiagnostics(settingsManager, "runtime creation")];
  // No extension registers flags in this build, so every unknown --flag is an error.
  const unknown = [...parsed.unknownFlags.keys()];
  if (unknown.length > 0) {
    diagnostics.push({
      type: "error",
      message: `Unknown option${unknown.length === 1 ? "" : "s"}: ${unknown.map((n) => `--${n}`).join(", ")}`,
    });
  }
  const patterns = parsed.models ?? settingsManager.getEnabledModels();
  const scopedModels: ScopedModel[] = patterns && patterns.length > 0
    ? await resolveModelScope(patterns, modelRegistry)
    : [];
  const hasExisting = sessionManager.buildSessionContext().messages.length > 0;
  const built = buildSessionOptions(parsed, scopedModels, hasExisting, modelRegistry, settingsManager);
  diagnostics.push(...built.diagnostics);
  if (parsed.apiKey) {
    if (!built.options.model) {
      diagnostics.push({
        type: "error",
        message: "--api-key requires a model to be specified via --model, --provider/--model, or --models",
      });
    } else {
      authStorage.setRuntimeApiKey(built.options.model.provider, parsed.apiKey);
    }
  }

  if (parsed.help) {
    const { helpText } = await import("./help.ts");
    io.stdout(helpText());
    return 0;
  }
  if (parsed.listModels !== undefined) {
    const search = typeof parsed.listModels === "string" ? parsed.listModels : undefined;
    const { formatModelList } = await import("./list_models.ts");
    const listing = formatModelList(modelRegistry, search);
    for (const warning of listing.warnings) io.stderr(`${warning}\n`);
    io.stdout(listing.out);
    return 0;
  }

  let stdinContent: string | undefined;
  if (appMode !== "rpc") {
    stdinContent = await io.readPipedStdin();
    if (stdinContent !== undefined && appMode === "interactive") appMode = "print";
  }
  const initial: InitialMessage = parsed.fileArgs.length === 0
    ? buildInitialMessage({ messages: parsed.messages, stdinContent })
    : await (async () => {
      const files = await processFileArguments(parsed.fileArgs, {
        autoResizeImages: settingsManager.getImageAutoResize(),
        cwd,
      });
      return buildInitialMessage({
        messages: parsed.messages,
        fileText: files.text,
        fileImages: files.images,
        stdinContent,
      });
    })();

  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  if (diagnostics.some((d) => d.type === "error")) return 1;

  const { session } = await createAgentSession({
    cwd: runtimeCwd,
    agentDir,
    sessionManager,
    settingsManager,
    authStorage,
    modelRegistry,
    resourceLoader,
    model: built.options.model,
    thinkingLevel: built.options.thinkingLevel,
    scopedModels: built.options.scopedModels,
    tools: built.options.tools,
    noTools: built.options.noTools,
  });
  if (session.model && (parsed.thinking !== undefined || built.cliThinkingFromModel)) {
    // Re-applied so the level is clamped to the model and recorded in the session.
    session.setThinkingLevel(session.thinkingLevel);
  }

  if (appMode !== "interactive" && !session.model) {
    // The reference's check here never fires: its agent falls back to a placeholder model
    // ("unknown/unknown") and the first prompt fails with this text instead, exit 1 (CLI-24).
    session.dispose();
    io.stderr(`${formatNoApiKeyFoundMessage("unknown")}\n`);
    return 1;
  }
  if (isTruthyEnvFlag(envGet("PI_STARTUP_BENCHMARK")) && appMode !== "interactive") {
    session.dispose();
    throw new CliExit("Error: PI_STARTUP_BENCHMARK only supports interactive mode");
  }
  if (appMode === "rpc") {
    // RPC replaces sessions (new_session, switch_session, fork, clone), so it gets a runtime
    // whose factory builds later sessions with the same flags, as the reference's does.
    const { AgentSessionRuntime, createAgentSessionFromServices, createAgentSessionServices } = await import(
      "../core/session_runtime.ts"
    );
    const { runRpcMode } = await import("../modes/rpc/rpc_mode.ts");
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
    const services = {
      cwd: runtimeCwd,
      agentDir,
      authStorage,
      settingsManager,
      modelRegistry,
      resourceLoader,
      diagnostics: [],
    };
    const runtime = new AgentSessionRuntime(session, services, async (options) => {
      const next = options.cwd === runtimeCwd && options.agentDir === agentDir
        ? services
        : await createAgentSessionServices({
          cwd: options.cwd,
          agentDir: options.agentDir,
          authStorage,
          resourceLoaderOptions,
        });
      const nextPatterns = parsed.models ?? next.settingsManager.getEnabledModels();
      const nextScoped = nextPatterns && nextPatterns.length > 0
        ? await resolveModelScope(nextPatterns, next.modelRegistry)
        : [];
      const existing = options.sessionManager.buildSessionContext().messages.length > 0;
      const nextBuilt = buildSessionOptions(
        parsed,
        nextScoped,
        existing,
        next.modelRegistry,
        next.settingsManager,
      );
      const created = await createAgentSessionFromServices({
        services: next,
        sessionManager: options.sessionManager,
        model: nextBuilt.options.model,
        thinkingLevel: nextBuilt.options.thinkingLevel,
        scopedModels: nextBuilt.options.scopedModels,
        tools: nextBuilt.options.tools,
        noTools: nextBuilt.options.noTools,
      });
      return { ...created, services: next, diagnostics: [] };
    });
    return await runRpcMode(runtime);
  }
  if (appMode === "interactive") {
    session.dispose();
    throw new CliExit("Error: Interactive mode is not available in this build (use -p or --mode json)");
  }
  const { runPrintMode } = await import("../modes/print_mode.ts");
  return await runPrintMode(session, {
    mode: appMode === "json" ? "json" : "text",
    messages: parsed.messages,
    initialMessage: initial.initialMessage,
    initialImages: initial.initialImages,
    jsonDeltas: parsed.jsonDeltas,
  });
}
