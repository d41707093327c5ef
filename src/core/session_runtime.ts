/**
 * AgentSessionRuntime: the owner of "the current session" for hosts that replace it — `/new`,
 * `/resume`, `/fork`, `/clone`, `/import` and their RPC twins (SES-14, SES-15, SES-17). Every
 * replacement disposes the old AgentSession and builds the next one through the same factory, so
 * cwd-bound services (settings, resources) are recreated for the target session's cwd.
 *
 * @module
 */
import { copyFileSync, existsSync, isDirectorySync, makeDirSync } from "../util/fs.ts";
import { basename, dirname, extname, join, resolve } from "../util/path.ts";
import { contentText } from "../ai/content_text.ts";
import { ensureModelsStore, type ModelRegistry } from "../config/model_registry.ts";
import { ModelRuntime } from "../config/model_runtime.ts";
import { getAgentDir } from "../config/paths.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { configLoadDiagnostics } from "../config/config_diagnostics.ts";
import { DefaultResourceLoader, type ResourceLoaderOptions } from "../resources/resource_loader.ts";
import { SessionManager } from "../session/session_manager.ts";
import type { AgentSession } from "./agent_session.ts";
import { assertSessionCwdExists } from "./missing_cwd.ts";
import type { SessionRuntimeHost } from "./runtime_host.ts";
import { createAgentSession, type CreateAgentSessionOptions, type CreateAgentSessionResult } from "./sdk.ts";

/** Thrown when `/import` names a JSONL file that does not exist. */
export class SessionImportFileNotFoundError extends Error {
  /** The path that was not found. */
  readonly filePath: string;
  /** Names the missing file in the message. */
  constructor(filePath: string) {
    super(`File not found: ${filePath}`);
    this.name = "SessionImportFileNotFoundError";
    this.filePath = filePath;
  }
}

// ── services ──────────────────────────────────────────────────────────────────

/** A non-fatal problem found while building a runtime; the host decides how to show it. */
export interface AgentSessionRuntimeDiagnostic {
  /** How serious the problem is. */
  type: "info" | "warning" | "error";
  /** What was wrong, for the user. */
  message: string;
}

/** The cwd-bound services one session runs with; rebuilt when the session's cwd changes. */
export interface AgentSessionServices {
  /** Working folder the services were built for. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** Settings. */
  settingsManager: SettingsManager;
  /** Models and their credentials (the runtime's registry). */
  modelRegistry: ModelRegistry;
  /** Models and their credentials, as pi 1.6.0's services carry them. */
  modelRuntime: ModelRuntime;
  /** Skills, prompt templates and context files. */
  resourceLoader: DefaultResourceLoader;
  /** Problems found while loading (e.g. a broken auth.json), for the user to see. */
  diagnostics: AgentSessionRuntimeDiagnostic[];
}

/** Inputs of {@link createAgentSessionServices}; CLI resource paths should already be absolute. */
export interface CreateAgentSessionServicesOptions {
  /** Working folder the services are built for. */
  cwd: string;
  /** Agent config folder (default: `~/.pi/agent` or `PI_CODING_AGENT_DIR`). */
  agentDir?: string;
  /** Settings (default: read from the agent dir and project). */
  settingsManager?: SettingsManager;
  /** Models and their credentials (default: a runtime over the agent dir's auth.json and models.json). */
  modelRuntime?: ModelRuntime;
  /** Options passed on to the resource loader. */
  resourceLoaderOptions?: Omit<ResourceLoaderOptions, "cwd" | "agentDir" | "settings">;
}

/** Builds settings, credentials, models and loaded resources for `cwd` (no session yet). */
export async function createAgentSessionServices(
  options: CreateAgentSessionServicesOptions,
): Promise<AgentSessionServices> {
  const cwd = options.cwd;
  const agentDir = options.agentDir ?? getAgentDir();
  const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
  const modelRuntime = options.modelRuntime ?? await ModelRuntime.create({
    authPath: join(agentDir, "auth.json"),
    modelsPath: join(agentDir, "models.json"),
  });
  const modelRegistry = modelRuntime.modelRegistry;
  ensureModelsStore(agentDir);
  const resourceLoader = new DefaultResourceLoader({
    ...options.resourceLoaderOptions,
    cwd,
    agentDir,
    settings: settingsManager,
  });
  await resourceLoader.reload();
  // Broken auth.json / models.json are named at start-up, not only as "No API key found" later.
  const diagnostics = configLoadDiagnostics(modelRegistry.authStorage, modelRegistry);
  return { cwd, agentDir, settingsManager, modelRegistry, modelRuntime, resourceLoader, diagnostics };
}

/** Why a session started; extensions' `session_start` event carries it. */
export interface SessionStartEvent {
  /** Event kind. */
  type: "session_start";
  /** Why the session started. */
  reason: "startup" | "reload" | "new" | "resume" | "fork";
  /** Session file in use before, when there was one. */
  previousSessionFile?: string;
}

/** Inputs of {@link createAgentSessionFromServices}: the services, plus the session choices of the SDK. */
export interface CreateAgentSessionFromServicesOptions extends
  Pick<
    CreateAgentSessionOptions,
    "model" | "thinkingLevel" | "scopedModels" | "tools" | "excludeTools" | "noTools" | "customTools"
  > {
  /** Services the session runs with. */
  services: AgentSessionServices;
  /** Session storage. */
  sessionManager: SessionManager;
  /** Accepted for signature parity; without extensions nothing receives it. */
  sessionStartEvent?: SessionStartEvent;
}

/** Creates the AgentSession once the services exist and session options were resolved against them. */
export function createAgentSessionFromServices(
  options: CreateAgentSessionFromServicesOptions,
): Promise<CreateAgentSessionResult> {
  const { services } = options;
  return createAgentSession({
    cwd: services.cwd,
    agentDir: services.agentDir,
    modelRuntime: services.modelRuntime,
    settingsManager: services.settingsManager,
    resourceLoader: services.resourceLoader,
    sessionManager: options.sessionManager,
    model: options.model,
    thinkingLevel: options.thinkingLevel,
    scopedModels: options.scopedModels,
    tools: options.tools,
    excludeTools: options.excludeTools,
    noTools: options.noTools,
    customTools: options.customTools,
  });
}

// ── runtime ───────────────────────────────────────────────────────────────────

/** What a runtime factory returns: the session plus the services and diagnostics it was built with. */
export interface CreateAgentSessionRuntimeResult extends CreateAgentSessionResult {
  /** Services the session runs with. */
  services: AgentSessionServices;
  /** Problems found while building the services. */
  diagnostics: AgentSessionRuntimeDiagnostic[];
}

/** Where the next runtime should live. */
export interface CreateAgentSessionRuntimeOptions {
  /** Working folder of the session. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** Session storage. */
  sessionManager: SessionManager;
  /** Why the session starts, passed on to extensions. */
  sessionStartEvent?: SessionStartEvent;
}

/**
 * Builds a whole runtime for a cwd and session manager. It closes over process-wide inputs (CLI
 * flags, auth) and is reused for every later replacement.
 */
export type CreateAgentSessionRuntimeFactory = (
  options: CreateAgentSessionRuntimeOptions,
) => Promise<CreateAgentSessionRuntimeResult>;

/**
 * Stand-ins for the reference's extension events around replacement (`session_before_switch`,
 * `session_before_fork`, `session_shutdown`); extensions are not wired here, so hosts that run
 * them plug them in through {@link AgentSessionRuntime.setHooks}.
 */
export interface AgentSessionRuntimeHooks {
  /** Before `/new` (reason "new") or a resume/import (reason "resume"); `cancel: true` stops it. */
  beforeSwitch?: (
    event: { reason: "new" | "resume"; targetSessionFile?: string },
  ) => Promise<{ cancel?: boolean } | undefined>;
  /** Before a fork or clone; `cancel: true` stops it. */
  beforeFork?: (
    event: { entryId: string; position: "before" | "at" },
  ) => Promise<{ cancel?: boolean } | undefined>;
  /** The current session is about to be disposed. */
  shutdown?: (
    event: { reason: "new" | "resume" | "fork" | "reload" | "quit"; targetSessionFile?: string },
  ) => Promise<void>;
}

/** Runs with the new session after a replacement (the reference passes an extension context instead). */
export type WithSession = (session: AgentSession) => Promise<void>;

/**
 * Owns the current AgentSession and its services. Replacement tears the current one down first,
 * then creates and applies the next; creation errors propagate to the caller.
 */
export class AgentSessionRuntime implements SessionRuntimeHost {
  #session: AgentSession;
  #services: AgentSessionServices;
  #createRuntime: CreateAgentSessionRuntimeFactory;
  #diagnostics: AgentSessionRuntimeDiagnostic[];
  #modelFallbackMessage?: string;
  #rebindSession?: (session: AgentSession) => Promise<void>;
  #beforeSessionInvalidate?: () => void;
  #hooks: AgentSessionRuntimeHooks = {};

  /** Wraps a session and the services it was built with; `createRuntime` builds replacements. */
  constructor(
    session: AgentSession,
    services: AgentSessionServices,
    createRuntime: CreateAgentSessionRuntimeFactory,
    diagnostics: AgentSessionRuntimeDiagnostic[] = [],
    modelFallbackMessage?: string,
  ) {
    this.#session = session;
    this.#services = services;
    this.#createRuntime = createRuntime;
    this.#diagnostics = diagnostics;
    this.#modelFallbackMessage = modelFallbackMessage;
  }

  /** The services of the current session. */
  get services(): AgentSessionServices {
    return this.#services;
  }
  get session(): AgentSession {
    return this.#session;
  }
  /** Working folder of the current session. */
  get cwd(): string {
    return this.#services.cwd;
  }
  /** Problems found while building the services. */
  get diagnostics(): readonly AgentSessionRuntimeDiagnostic[] {
    return this.#diagnostics;
  }
  /** Why the saved model could not be used, if it could not. */
  get modelFallbackMessage(): string | undefined {
    return this.#modelFallbackMessage;
  }

  /** Called with every new session so hosts (RPC, TUI) re-subscribe to it. */
  setRebindSession(rebindSession?: (session: AgentSession) => Promise<void>): void {
    this.#rebindSession = rebindSession;
  }

  /** Synchronous host teardown run after shutdown hooks, just before the old session is disposed. */
  setBeforeSessionInvalidate(beforeSessionInvalidate?: () => void): void {
    this.#beforeSessionInvalidate = beforeSessionInvalidate;
  }

  /** Installs the replacement hooks (replaces earlier ones). */
  setHooks(hooks: AgentSessionRuntimeHooks): void {
    this.#hooks = { ...hooks };
  }

  async #beforeSwitch(reason: "new" | "resume", targetSessionFile?: string): Promise<{ cancelled: boolean }> {
    if (!this.#hooks.beforeSwitch) return { cancelled: false };
    const result = await this.#hooks.beforeSwitch({ reason, targetSessionFile });
    return { cancelled: result?.cancel === true };
  }

  async #teardown(
    reason: "new" | "resume" | "fork" | "reload" | "quit",
    targetSessionFile?: string,
  ): Promise<void> {
    await this.#hooks.shutdown?.({ reason, targetSessionFile });
    this.#beforeSessionInvalidate?.();
    this.#session.dispose();
  }

  async #replace(
    cwd: string,
    sessionManager: SessionManager,
    reason: "new" | "resume" | "fork" | "reload",
    previousSessionFile: string | undefined,
  ): Promise<void> {
    await this.#teardown(reason, reason === "reload" ? undefined : sessionManager.getSessionFile());
    const result = await this.#createRuntime({
      cwd,
      agentDir: this.#services.agentDir,
      sessionManager,
      sessionStartEvent: { type: "session_start", reason, previousSessionFile },
    });
    this.#session = result.session;
    this.#services = result.services;
    this.#diagnostics = result.diagnostics;
    this.#modelFallbackMessage = result.modelFallbackMessage;
  }

  async #finish(withSession?: WithSession): Promise<void> {
    if (this.#rebindSession) await this.#rebindSession(this.#session);
    if (withSession) await withSession(this.#session);
  }

  /** Resumes another session file (its own cwd unless `cwdOverride`). */
  async switchSession(
    sessionPath: string,
    options: { cwdOverride?: string; withSession?: WithSession } = {},
  ): Promise<{ cancelled: boolean }> {
    // Opening a path under a missing folder would create that folder (at any depth, even from
    // a typo); refuse instead, before anything is torn down.
    const folder = dirname(resolve(this.cwd, sessionPath));
    if (!isDirectorySync(folder)) {
      throw new Error(`Cannot open session ${sessionPath}: folder ${folder} does not exist`);
    }
    const before = await this.#beforeSwitch("resume", sessionPath);
    if (before.cancelled) return before;
    const previousSessionFile = this.#session.sessionFile;
    const sessionManager = SessionManager.open(sessionPath, undefined, options.cwdOverride);
    assertSessionCwdExists(sessionManager, this.cwd);
    await this.#replace(sessionManager.getCwd(), sessionManager, "resume", previousSessionFile);
    await this.#finish(options.withSession);
    return { cancelled: false };
  }

  /**
   * Starts an empty session in the same folder. `parentSession` is recorded in the header;
   * `setup` may append entries before the agent's messages are rebuilt from them.
   */
  async newSession(
    options: {
      parentSession?: string;
      setup?: (sessionManager: SessionManager) => Promise<void>;
      withSession?: WithSession;
    } = {},
  ): Promise<{ cancelled: boolean }> {
    const before = await this.#beforeSwitch("new");
    if (before.cancelled) return before;
    const previousSessionFile = this.#session.sessionFile;
    const sessionManager = SessionManager.create(this.cwd, this.#session.sessionManager.getSessionDir());
    if (options.parentSession) sessionManager.newSession({ parentSession: options.parentSession });
    await this.#replace(this.cwd, sessionManager, "new", previousSessionFile);
    if (options.setup) {
      await options.setup(this.#session.sessionManager);
      this.#session.agent.state.messages = this.#session.sessionManager.buildSessionContext().messages;
    }
    await this.#finish(options.withSession);
    return { cancelled: false };
  }

  /**
   * Forks into a new session file. `position: "before"` (default, `/fork`) needs a user message:
   * the new leaf is its parent and its text comes back as `selectedText`; `"at"` (`/clone`) keeps
   * the path through the entry. Forking before a root message gives an empty session whose
   * header names the old file as `parentSession`.
   */
  async fork(
    entryId: string,
    options: { position?: "before" | "at"; withSession?: WithSession } = {},
  ): Promise<{ cancelled: boolean; selectedText?: string }> {
    const position = options.position ?? "before";
    if (this.#hooks.beforeFork) {
      const result = await this.#hooks.beforeFork({ entryId, position });
      if (result?.cancel === true) return { cancelled: true };
    }
    const current = this.#session.sessionManager;
    const selected = current.getEntry(entryId);
    if (!selected) throw new Error("Invalid entry ID for forking");
    let targetLeafId: string | null;
    let selectedText: string | undefined;
    if (position === "at") {
      targetLeafId = selected.id;
    } else {
      if (selected.type !== "message" || selected.message.role !== "user") {
        throw new Error("Invalid entry ID for forking");
      }
      targetLeafId = selected.parentId;
      selectedText = userMessageText((selected.message as { content: unknown }).content);
    }
    const previousSessionFile = this.#session.sessionFile;

    if (current.isPersisted()) {
      const currentSessionFile = this.#session.sessionFile;
      if (!currentSessionFile) throw new Error("Persisted session is missing a session file");
      const sessionDir = current.getSessionDir();
      if (!targetLeafId) {
        const sessionManager = SessionManager.create(this.cwd, sessionDir);
        sessionManager.newSession({ parentSession: currentSessionFile });
        await this.#replace(this.cwd, sessionManager, "fork", previousSessionFile);
      } else {
        if (!existsSync(currentSessionFile)) {
          throw new Error(
            "This session has not been saved yet. Send a message before cloning or forking it.",
          );
        }
        // Branch from what is on disk, not from the live manager, so the old session is untouched.
        // The branched manager goes on as the new session: a path with no conversation yet (a
        // fork before the first message keeps only setup and the system prompt) is not written
        // until there is one, so reopening the file would lose it.
        const sessionManager = SessionManager.open(currentSessionFile, sessionDir);
        if (!sessionManager.createBranchedSession(targetLeafId)) {
          throw new Error("Failed to create forked session");
        }
        await this.#replace(sessionManager.getCwd(), sessionManager, "fork", previousSessionFile);
      }
    } else {
      if (!targetLeafId) current.newSession({ parentSession: this.#session.sessionFile });
      else current.createBranchedSession(targetLeafId);
      await this.#replace(this.cwd, current, "fork", previousSessionFile);
    }
    await this.#finish(options.withSession);
    return { cancelled: false, selectedText };
  }

  /**
   * Copies a JSONL session file into the session folder (unless it is already there) and resumes
   * it. Throws {@link SessionImportFileNotFoundError} for a missing file and
   * {@link MissingSessionCwdError} when its cwd is gone and no `cwdOverride` is given.
   */
  async importFromJsonl(inputPath: string, cwdOverride?: string): Promise<{ cancelled: boolean }> {
    const resolvedPath = resolve(inputPath);
    if (!existsSync(resolvedPath)) throw new SessionImportFileNotFoundError(resolvedPath);
    const sessionDir = this.#session.sessionManager.getSessionDir();
    if (!existsSync(sessionDir)) makeDirSync(sessionDir);
    let destinationPath = join(sessionDir, basename(resolvedPath));
    const alreadyStored = resolve(destinationPath) === resolvedPath;
    if (!alreadyStored) {
      // Never over a stored session of the same name: name-1.jsonl, name-2.jsonl… (pi 1.6.0).
      const ext = extname(destinationPath);
      const stem = ext ? destinationPath.slice(0, -ext.length) : destinationPath;
      for (let n = 1; existsSync(destinationPath); n++) destinationPath = `${stem}-${n}${ext}`;
    }
    const before = await this.#beforeSwitch("resume", destinationPath);
    if (before.cancelled) return before;
    const previousSessionFile = this.#session.sessionFile;
    if (!alreadyStored) copyFileSync(resolvedPath, destinationPath);
    const sessionManager = SessionManager.open(destinationPath, sessionDir, cwdOverride);
    try {
      assertSessionCwdExists(sessionManager, this.cwd);
    } catch (error) {
      // Nothing was imported: no stray copy is left for a retry with a cwd override.
      if (!alreadyStored) Deno.removeSync(destinationPath);
      throw error;
    }
    await this.#replace(sessionManager.getCwd(), sessionManager, "resume", previousSessionFile);
    await this.#finish();
    return { cancelled: false };
  }

  /**
   * Reads settings, resources (skills, prompt templates, context files, themes) and extensions again
   * and goes on with the same session (its entries, model and thinking level): the current session is
   * shut down with reason "reload" and rebuilt by the runtime factory over the same session manager;
   * extensions see `session_shutdown` and `session_start` with reason "reload", as in pi 1.6.0.
   */
  async reload(options: { withSession?: WithSession } = {}): Promise<void> {
    if (this.#session.isStreaming) {
      throw new Error("Wait for the current response to finish before reloading.");
    }
    if (this.#session.isCompacting) throw new Error("Wait for compaction to finish before reloading.");
    const sessionManager = this.#session.sessionManager;
    await this.#replace(this.cwd, sessionManager, "reload", this.#session.sessionFile);
    await this.#finish(options.withSession);
  }

  /** Shuts the current session down for good (reason "quit"). */
  async dispose(): Promise<void> {
    await this.#teardown("quit");
  }
}

/**
 * Creates the first runtime with `createRuntime`, which is kept for every later `/new`,
 * `/resume`, `/fork` and import.
 */
export async function createAgentSessionRuntime(
  createRuntime: CreateAgentSessionRuntimeFactory,
  options: CreateAgentSessionRuntimeOptions,
): Promise<AgentSessionRuntime> {
  assertSessionCwdExists(options.sessionManager, options.cwd);
  const result = await createRuntime(options);
  return new AgentSessionRuntime(
    result.session,
    result.services,
    createRuntime,
    result.diagnostics,
    result.modelFallbackMessage,
  );
}

function userMessageText(content: unknown): string {
  return typeof content === "string" || Array.isArray(content) ? contentText(content) : "";
}
