/**
 * What `pi` does between parsing its arguments and handing off to a mode — the order of the
 * reference's `main()` (CLI-09): subcommands, flag checks, version, features this build lacks,
 * session selection, the runtime (settings, credentials, models, resources, session), `--help`,
 * `--list-models`, stdin and `@file`s, diagnostics, then the mode. Each step is a function below;
 * early stops are {@link CliExit}s, turned into exit codes here.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { settleExitWork } from "../util/exit_work.ts";
import { getAgentDir, isTruthyEnvFlag, resolveSessionDir } from "../config/paths.ts";
import { applyHttpProxySetting } from "../config/http_proxy.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import {
  AgentSessionRuntime,
  type AgentSessionServices,
  type CreateAgentSessionRuntimeFactory,
  type CreateAgentSessionRuntimeResult,
} from "../core/session_runtime.ts";
import type { AgentSession } from "../core/agent_session.ts";
import { extensionHostOf } from "../core/extension_host.ts";
import { runtimeSessionControl } from "../core/extension_session_control.ts";
import type { ExtensionUIContext } from "../extensions/types.ts";
import { InvalidSessionFileError } from "../session/session_file.ts";
import type { SessionManager } from "../session/session_manager.ts";
import { VERSION } from "../version.ts";
import { type CliArgs, type CliDiagnostic, parseArgs } from "./args.ts";
import { type PreparedRuntime, runtimeFactory, settingsDiagnostics } from "./runtime_factory.ts";
import { CliExit } from "./cli_error.ts";
import type { CliIO } from "./cli_io.ts";
import { processFileArguments } from "./file_processor.ts";
import { buildInitialMessage, type InitialMessage } from "./initial_message.ts";
import {
  createSessionManager,
  missingSessionCwdMessage,
  validateForkFlags,
  validateSessionIdFlags,
} from "./session_target.ts";
import { dim, red, yellow } from "../util/style.ts";
import { rejectUnavailableFeatures, runSubcommand } from "./subcommands.ts";

/** How the run will interact: a mode of the reference's `resolveAppMode`. */
export type AppMode = "interactive" | "print" | "json" | "rpc";

/** `--mode rpc|json` wins; `-p`, or stdin or stdout not a terminal, means print; otherwise interactive. */
export function resolveAppMode(args: CliArgs, stdinIsTerminal: boolean, stdoutIsTerminal: boolean): AppMode {
  if (args.mode === "rpc") return "rpc";
  if (args.mode === "json") return "json";
  if (args.print || !stdinIsTerminal || !stdoutIsTerminal) return "print";
  return "interactive";
}

/** Environment of one CLI run (defaults: the process's cwd, agent dir and environment). */
export interface MainFlowContext {
  io: CliIO;
  cwd?: string;
  agentDir?: string;
}

/** A diagnostic line as the reference colours and prefixes it. */
export function formatDiagnostic(d: CliDiagnostic): string {
  if (d.type === "error") return red(`Error: ${d.message}`);
  if (d.type === "warning") return yellow(`Warning: ${d.message}`);
  return dim(d.message);
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

/** What the steps after argument parsing share. */
interface RunContext {
  io: CliIO;
  parsed: CliArgs;
  appMode: AppMode;
  /** The directory pi was started in. */
  cwd: string;
  agentDir: string;
  /** console.log's stream: stdout when interactive, stderr otherwise. */
  log: (text: string) => void;
}

async function mainSteps(
  argv: string[],
  ctx: MainFlowContext,
  setLog: (write: (text: string) => void) => void,
): Promise<number> {
  const { io } = ctx;
  applyOfflineFlag(argv);
  const cwd = ctx.cwd ?? Deno.cwd();
  const agentDir = ctx.agentDir ?? getAgentDir();
  const subcommandExit = await runSubcommand(argv, { io, cwd, agentDir });
  if (subcommandExit !== undefined) return subcommandExit;

  const parsed = parseAndReport(argv, io);
  if (parsed.version) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (parsed.export) {
    const { runExportCommand } = await import("./export_command.ts");
    return await runExportCommand(parsed, io);
  }
  const appMode = resolveAppMode(parsed, io.stdinIsTerminal(), io.stdoutIsTerminal());
  const log = appMode === "interactive" ? io.stdout : io.stderr;
  setLog(log);
  const run: RunContext = { io, parsed, appMode, cwd, agentDir, log };

  validateFlags(parsed);
  rejectUnavailableFeatures(parsed, appMode);
  const startupSettings = SettingsManager.create(cwd, agentDir);
  // Before the first request: Deno's fetch reads the proxy variables when it first connects.
  applyHttpProxySetting(startupSettings.getHttpProxy());
  try {
    startupSettings.getHttpIdleTimeoutMs();
  } catch (error) {
    // Every request would fail on it; pi 1.6.0 stops here too (with a stack trace).
    throw new CliExit(`Error: ${(error as Error).message} (settings.json: milliseconds, 0 or "disabled")`);
  }
  const startupDiagnostics = settingsDiagnostics(startupSettings, "startup session lookup");
  for (const d of startupDiagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const sandboxExit = await applySandboxProfile(run, startupSettings, argv);
  if (sandboxExit !== undefined) return sandboxExit;
  const sessionManager = await openSession(run, startupSettings);
  nameSession(parsed, sessionManager);

  const runtime = runtimeFactory(run, startupSettings);
  const target = { cwd: sessionManager.getCwd(), agentDir, sessionManager };
  // --help and --list-models need the models and diagnostics, not a session.
  if (parsed.help) return await printHelp(run, await runtime.prepare(target));
  if (parsed.listModels !== undefined) return await printModelList(run, await runtime.prepare(target));

  const initial = await runtime.create(target);
  const { session, services, diagnostics } = initial;

  const message = await readInitialMessage(run, services);
  // The interactive mode shows start-up warnings in its chat, as 1.6.0 does (stderr is under the
  // screen); they go to stderr there only beside an error, which stops the run.
  const errors = diagnostics.some((d) => d.type === "error");
  for (const d of diagnostics) {
    if (errors || run.appMode !== "interactive" || d.type !== "warning") {
      io.stderr(`${formatDiagnostic(d)}\n`);
    }
  }
  if (errors) return stop(session, 1);
  checkCanRun(run, session);
  return await runMode(run, initial, runtime.create, message);
}

// ── steps ─────────────────────────────────────────────────────────────────────

/** `--offline` (or PI_OFFLINE) turns off start-up network use for the whole process. */
function applyOfflineFlag(argv: readonly string[]): void {
  if (argv.includes("--offline") || isTruthyEnvFlag(readEnv("PI_OFFLINE"))) {
    Deno.env.set("PI_OFFLINE", "1");
    Deno.env.set("PI_SKIP_VERSION_CHECK", "1");
  }
}

/**
 * `--sandbox` or the `sandbox` setting: runs pi confined (src/cli/sandbox.ts, loaded only then).
 * Resolves the confined run's exit code, or undefined when this process goes on.
 */
async function applySandboxProfile(
  run: RunContext,
  settings: SettingsManager,
  argv: readonly string[],
): Promise<number | undefined> {
  const { parsed, cwd, agentDir } = run;
  const globalSettings = settings.getGlobalSettings() as Record<string, unknown>;
  if (parsed.sandbox === undefined && !("sandbox" in globalSettings)) return undefined;
  const { applySandbox, sessionPathsOf } = await import("./sandbox.ts");
  // The user's own sessionDir only: a project must not choose where a confined pi may write.
  const ownSessionDir = typeof globalSettings.sessionDir === "string" ? globalSettings.sessionDir : undefined;
  return await applySandbox({
    flag: parsed.sandbox,
    cwd,
    agentDir,
    sessionDir: resolveSessionDir(parsed.sessionDir, ownSessionDir),
    sessionPaths: sessionPathsOf(parsed),
    argv,
  }, globalSettings);
}

/** Parses the arguments and prints their diagnostics; an error stops the run with exit 1. */
function parseAndReport(argv: string[], io: CliIO): CliArgs {
  const parsed = parseArgs(argv);
  for (const d of parsed.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  if (parsed.diagnostics.some((d) => d.type === "error")) throw new CliExit("", 1);
  return parsed;
}

/** Flag combinations that cannot work, checked before anything touches the disk. */
function validateFlags(parsed: CliArgs): void {
  if (parsed.mode === "rpc" && parsed.fileArgs.length > 0) {
    throw new CliExit("Error: @file arguments are not supported in RPC mode");
  }
  validateForkFlags(parsed);
  validateSessionIdFlags(parsed);
}

/**
 * Opens the session the flags select (an unreadable session file is a plain error, never a stack
 * trace), reports skipped lines, and refuses a session whose working directory is gone.
 */
async function openSession(run: RunContext, startupSettings: SettingsManager): Promise<SessionManager> {
  const { io, parsed, cwd, agentDir, log } = run;
  const sessionDir = resolveSessionDir(parsed.sessionDir, startupSettings.getSessionDir());
  let sessionManager: SessionManager;
  try {
    sessionManager = await createSessionManager(parsed, {
      cwd,
      sessionDir,
      agentDir,
      log,
      warn: (message) => io.stderr(`${yellow(`Warning: ${message}`)}\n`),
      confirm: async (question) => {
        log(`${question} [y/N] `);
        const answer = await io.readLine();
        if (answer === undefined) return undefined;
        return answer.toLowerCase() === "y" || answer.toLowerCase() === "yes";
      },
      pickSession: io.stdinIsTerminal() && io.stdoutIsTerminal()
        ? async (loaders) => {
          const { pickSessionAtStartup } = await import("../modes/interactive/session_picker.ts");
          return await pickSessionAtStartup({
            loaders,
            theme: startupSettings.getTheme(),
            home: readEnv("HOME"),
          });
        }
        : undefined,
    });
  } catch (error) {
    if (error instanceof InvalidSessionFileError) throw new CliExit(`Error: ${error.message}`);
    throw error;
  }
  // Malformed lines and a torn last line are skipped, never deleted; say so.
  for (const warning of sessionManager.getLoadWarnings()) io.stderr(`${yellow(`Warning: ${warning}`)}\n`);
  // The reference asks in interactive mode; without a TUI here it is an error in every mode.
  const missingCwd = missingSessionCwdMessage(sessionManager, cwd);
  if (missingCwd) throw new CliExit(missingCwd);
  return sessionManager;
}

/** `--name` becomes the session's first `session_info` entry. */
function nameSession(parsed: CliArgs, sessionManager: SessionManager): void {
  if (parsed.name === undefined) return;
  const name = parsed.name.trim();
  if (!name) throw new CliExit("Error: --name requires a non-empty value");
  sessionManager.appendSessionInfo(name);
}

function stop(session: AgentSession, code: number): number {
  session.dispose();
  return code;
}

/** `--help`: start-up diagnostics on stderr, the text on stdout, exit 0 (errors included, as in the reference). */
async function printHelp(run: RunContext, prepared: PreparedRuntime): Promise<number> {
  for (const d of prepared.diagnostics) run.io.stderr(`${formatDiagnostic(d)}\n`);
  const { helpText } = await import("./help.ts");
  run.io.stdout(helpText(prepared.extensions?.flags()));
  return 0;
}

/** `--list-models [search]`: the table on stdout. */
async function printModelList(run: RunContext, prepared: PreparedRuntime): Promise<number> {
  for (const d of prepared.diagnostics) run.io.stderr(`${formatDiagnostic(d)}\n`);
  const search = typeof run.parsed.listModels === "string" ? run.parsed.listModels : undefined;
  const { formatModelList } = await import("./list_models.ts");
  // The start-up diagnostics already named a broken models.json (file, line, problem).
  const listing = formatModelList(prepared.services.modelRegistry, search, {
    reportLoadError: prepared.services.diagnostics.length === 0,
  });
  for (const warning of listing.warnings) run.io.stderr(`${warning}\n`);
  run.io.stdout(listing.out);
  return 0;
}

/** Piped stdin (not in RPC mode, where stdin is the protocol) and `@file`s, folded into the first prompt. */
async function readInitialMessage(run: RunContext, services: AgentSessionServices): Promise<InitialMessage> {
  const { io, parsed } = run;
  let stdinContent: string | undefined;
  if (run.appMode !== "rpc") {
    stdinContent = await io.readPipedStdin();
    if (stdinContent !== undefined && run.appMode === "interactive") run.appMode = "print";
  }
  if (parsed.fileArgs.length === 0) return buildInitialMessage({ messages: parsed.messages, stdinContent });
  const files = await processFileArguments(parsed.fileArgs, {
    autoResizeImages: services.settingsManager.getImageAutoResize(),
    cwd: run.cwd,
  });
  return buildInitialMessage({
    messages: parsed.messages,
    fileText: files.text,
    fileImages: files.images,
    stdinContent,
  });
}

/**
 * Refuses to start a run that cannot work: a benchmark outside interactive mode. Without a model
 * every mode starts (the reference's agent falls back to a placeholder model, "unknown/unknown"):
 * each prompt that reaches the model is refused with "No API key found…" (CLI-24; print and JSON
 * mode exit 1), while a run with no prompt, or only a built-in command such as `/llama`, ends 0.
 */
function checkCanRun(run: RunContext, session: AgentSession): void {
  if (isTruthyEnvFlag(readEnv("PI_STARTUP_BENCHMARK")) && run.appMode !== "interactive") {
    session.dispose();
    throw new CliExit("Error: PI_STARTUP_BENCHMARK only supports interactive mode");
  }
}

/** Hands the session to RPC, print or JSON mode. */
async function runMode(
  run: RunContext,
  initial: CreateAgentSessionRuntimeResult,
  createRuntime: CreateAgentSessionRuntimeFactory,
  message: InitialMessage,
): Promise<number> {
  const { session, services } = initial;
  if (run.appMode === "rpc") {
    const { runRpcMode } = await import("../modes/rpc/rpc_mode.ts");
    const runtime = new AgentSessionRuntime(session, services, createRuntime);
    const code = await runRpcMode(runtime, {
      // As 1.6.0's RPC mode: dialogs over the extension UI sub-protocol, errors as records.
      onSession: async (current, rpc) => {
        const extensions = extensionHostOf(current);
        runtime.setHooks(extensions?.runtimeHooks() ?? {});
        await extensions?.bind(current, {
          ui: rpc.ui as unknown as ExtensionUIContext,
          sessionControl: runtimeSessionControl(runtime, rpc.serve),
          // A command's ctx.reload() is RPC's /reload: the runtime rebuilds the session, RPC serves it.
          reload: () => runtime.reload({ withSession: () => rpc.serve() }),
          shutdown: rpc.shutdown,
          onError: (err) =>
            rpc.output({
              type: "extension_error",
              extensionPath: err.extensionPath,
              event: err.event,
              error: err.error,
            }),
        });
      },
    });
    // What the session still closes (MCP servers) ends before pi does.
    await settleExitWork();
    return code;
  }
  if (run.appMode === "interactive") {
    const { runInteractiveMode } = await import("../modes/interactive/interactive_mode.ts");
    const runtime = new AgentSessionRuntime(session, services, createRuntime);
    return await runInteractiveMode(runtime, {
      version: VERSION,
      warnings: initial.diagnostics.filter((d) => d.type === "warning").map((d) => d.message),
      tuiMode: run.parsed.tuiMode,
      initialMessage: message.initialMessage,
      initialImages: message.initialImages,
      initialMessages: run.parsed.messages,
      themes: {
        agentDir: run.agentDir,
        cliPaths: run.parsed.themes,
        useTheme: run.parsed.useTheme,
        noThemes: run.parsed.noThemes,
      },
      // As 1.6.0's interactive mode: the TUI's dialogs, widgets and statuses; errors in the chat.
      onSession: async (current, _notify, extensionUI) => {
        const extensions = extensionHostOf(current);
        runtime.setHooks(extensions?.runtimeHooks() ?? {});
        await extensions?.bind(current, { ...extensionUI, mode: "tui" });
      },
    });
  }
  const { runPrintMode } = await import("../modes/print_mode.ts");
  // A runtime, so an extension command can replace the session (1.6.0's print mode has one too).
  const runtime = new AgentSessionRuntime(session, services, createRuntime);
  try {
    return await runPrintMode(runtime, {
      mode: run.appMode === "json" ? "json" : "text",
      messages: run.parsed.messages,
      initialMessage: message.initialMessage,
      initialImages: message.initialImages,
      // As 1.6.0's print and JSON modes: no UI, each handler error one stderr line; bound once the
      // output is set up, so what session_start handlers do is output too.
      bindSession: async (current, print) => {
        const extensions = extensionHostOf(current);
        runtime.setHooks(extensions?.runtimeHooks() ?? {});
        await extensions?.bind(current, {
          mode: run.appMode === "json" ? "json" : "print",
          sessionControl: runtimeSessionControl(runtime, print.serve),
          reload: () => runtime.reload({ withSession: () => print.serve() }),
          onError: (err) => run.io.stderr(`Extension error (${err.extensionPath}): ${err.error}\n`),
        });
      },
    });
  } finally {
    // `session_shutdown` handlers run as the run ends (1.6.0: when the runtime is disposed).
    await extensionHostOf(runtime.session)?.shutdown();
    // What the session still closes (MCP servers) ends before pi does.
    await settleExitWork();
  }
}
