/**
 * Loading, error tracking and write-back machinery behind SettingsManager. Kept apart from the long list of
 * typed getters/setters so each file stays readable.
 *
 * @module
 */

import { loadJsoncEditor } from "./jsonc.ts";
import { deepMergeSettings, foldModifiedSettings, parseSettingsText } from "./settings_storage.ts";
import type { Settings, SettingsError, SettingsScope, SettingsStorage } from "./settings_types.ts";

interface LoadResult {
  settings: Settings;
  error: Error | null;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Reads one scope from storage; a parse failure is returned, not thrown. An untrusted project's settings are
 * not read at all (project trust, see project_trust.ts).
 */
export function tryLoadSettings(
  storage: SettingsStorage,
  scope: SettingsScope,
  projectTrusted = true,
): LoadResult {
  if (scope === "project" && !projectTrusted) return { settings: {}, error: null };
  try {
    let content: string | undefined;
    storage.withLock(scope, (current) => {
      content = current;
      return undefined;
    });
    return { settings: content ? parseSettingsText(content) : {}, error: null };
  } catch (error) {
    return { settings: {}, error: toError(error) };
  }
}

/**
 * State and persistence shared by all settings accessors. Setters change the global (or project) layer in
 * memory, mark what they touched, and queue a write that folds just those keys into the file under its lock.
 * A scope whose file failed to parse is never written, so a broken file is never clobbered.
 */
export class SettingsManagerCore {
  /** Where settings are read from and written to. */
  protected storage: SettingsStorage;
  /** Settings of the agent dir's settings.json. */
  protected globalSettings: Settings;
  /** Settings of the project's settings.json. */
  protected projectSettings: Settings;
  /** Both merged, project winning. */
  protected settings: Settings;
  private modifiedFields = new Set<string>();
  private modifiedNestedFields = new Map<string, Set<string>>();
  private modifiedProjectFields = new Set<string>();
  private modifiedProjectNestedFields = new Map<string, Set<string>>();
  private globalSettingsLoadError: Error | null;
  private projectSettingsLoadError: Error | null;
  private writeQueue: Promise<void> = Promise.resolve();
  private errors: SettingsError[];
  private projectTrusted: boolean;

  /** Loads both scopes through `storage`; an untrusted project's settings are not loaded. */
  protected constructor(storage: SettingsStorage, projectTrusted = true) {
    this.storage = storage;
    this.projectTrusted = projectTrusted;
    const global = tryLoadSettings(storage, "global");
    const project = tryLoadSettings(storage, "project", projectTrusted);
    this.globalSettings = global.settings;
    this.projectSettings = project.settings;
    this.globalSettingsLoadError = global.error;
    this.projectSettingsLoadError = project.error;
    this.errors = [];
    if (global.error) this.recordError("global", global.error);
    if (project.error) this.recordError("project", project.error);
    this.settings = deepMergeSettings(this.globalSettings, this.projectSettings);
  }

  /** Whether the project's `.pi/settings.json` is loaded (and may be written). */
  isProjectTrusted(): boolean {
    return this.projectTrusted;
  }

  /**
   * Switches project trust: untrusting drops the project layer (its file is left alone); trusting loads it.
   * Used when the trust decision is made after the manager was created (e.g. an interactive prompt).
   */
  setProjectTrusted(trusted: boolean): void {
    if (this.projectTrusted === trusted) return;
    this.projectTrusted = trusted;
    this.modifiedProjectFields.clear();
    this.modifiedProjectNestedFields.clear();
    const project = tryLoadSettings(this.storage, "project", trusted);
    this.projectSettings = project.settings;
    this.projectSettingsLoadError = project.error;
    if (project.error) this.recordError("project", project.error);
    this.settings = deepMergeSettings(this.globalSettings, this.projectSettings);
  }

  /** A copy of the global layer as loaded/modified. */
  getGlobalSettings(): Settings {
    return structuredClone(this.globalSettings);
  }

  /** A copy of the project layer as loaded/modified. */
  getProjectSettings(): Settings {
    return structuredClone(this.projectSettings);
  }

  /** Waits for pending writes, then re-reads both files (a scope that now fails keeps its old values). */
  async reload(): Promise<void> {
    await this.writeQueue;
    const globalLoad = tryLoadSettings(this.storage, "global");
    if (!globalLoad.error) {
      this.globalSettings = globalLoad.settings;
      this.globalSettingsLoadError = null;
    } else {
      this.globalSettingsLoadError = globalLoad.error;
      this.recordError("global", globalLoad.error);
    }
    this.modifiedFields.clear();
    this.modifiedNestedFields.clear();
    this.modifiedProjectFields.clear();
    this.modifiedProjectNestedFields.clear();
    const projectLoad = tryLoadSettings(this.storage, "project", this.projectTrusted);
    if (!projectLoad.error) {
      this.projectSettings = projectLoad.settings;
      this.projectSettingsLoadError = null;
    } else {
      this.projectSettingsLoadError = projectLoad.error;
      this.recordError("project", projectLoad.error);
    }
    this.settings = deepMergeSettings(this.globalSettings, this.projectSettings);
  }

  /** Layers runtime overrides (e.g. from CLI flags) over the effective settings without persisting them. */
  applyOverrides(overrides: Settings): void {
    this.settings = deepMergeSettings(this.settings, overrides);
  }

  /** Resolves once every queued write has reached storage. */
  async flush(): Promise<void> {
    await this.writeQueue;
  }

  /** Returns and forgets the load/write errors collected so far. */
  drainErrors(): SettingsError[] {
    const drained = [...this.errors];
    this.errors = [];
    return drained;
  }

  /** Records a changed global field so that saving keeps other writers' fields. */
  protected markModified(field: keyof Settings, nestedKey?: string): void {
    this.modifiedFields.add(field);
    if (nestedKey) {
      const nested = this.modifiedNestedFields.get(field) ?? new Set<string>();
      nested.add(nestedKey);
      this.modifiedNestedFields.set(field, nested);
    }
  }

  /** Records a changed project field so that saving keeps other writers' fields. */
  protected markProjectModified(field: keyof Settings, nestedKey?: string): void {
    this.modifiedProjectFields.add(field);
    if (nestedKey) {
      const nested = this.modifiedProjectNestedFields.get(field) ?? new Set<string>();
      nested.add(nestedKey);
      this.modifiedProjectNestedFields.set(field, nested);
    }
  }

  /** Errors name the file (`Invalid settings file <path>: …`) when the storage has one. */
  private recordError(scope: SettingsScope, error: unknown): void {
    const path = this.storage.pathFor?.(scope);
    const base = toError(error);
    const named = path ? new Error(`Invalid settings file ${path}: ${base.message}`) : base;
    this.errors.push(path ? { scope, path, error: named } : { scope, error: named });
  }

  /** Queues a write so that writes happen in order. */
  private enqueueWrite(scope: SettingsScope, task: () => void): void {
    this.writeQueue = this.writeQueue
      .then(async () => {
        // Rewriting a JSONC file needs the comment-preserving editor; it loads here, off start-up.
        await loadJsoncEditor();
        task();
        if (scope === "global") {
          this.modifiedFields.clear();
          this.modifiedNestedFields.clear();
        } else {
          this.modifiedProjectFields.clear();
          this.modifiedProjectNestedFields.clear();
        }
      })
      .catch((error) => this.recordError(scope, error));
  }

  /** Writes the changed fields of one scope. */
  private persist(
    scope: SettingsScope,
    snapshot: Settings,
    fields: Set<string>,
    nested: Map<string, Set<string>>,
  ): void {
    this.storage.withLock(scope, (current) => foldModifiedSettings(current, snapshot, fields, nested));
  }

  /** Deep copy of a field map. */
  private static cloneNested(source: Map<string, Set<string>>): Map<string, Set<string>> {
    return new Map([...source].map(([key, value]) => [key, new Set(value)]));
  }

  /** Recomputes the effective settings and queues a write of the modified global keys. */
  protected save(): void {
    this.settings = deepMergeSettings(this.globalSettings, this.projectSettings);
    if (this.globalSettingsLoadError) return;
    const snapshot = structuredClone(this.globalSettings);
    const fields = new Set(this.modifiedFields);
    const nested = SettingsManagerCore.cloneNested(this.modifiedNestedFields);
    this.enqueueWrite("global", () => this.persist("global", snapshot, fields, nested));
  }

  /** Replaces the project layer and queues a write of its modified keys. */
  protected saveProjectSettings(settings: Settings): void {
    if (!this.projectTrusted) throw new Error("Project is not trusted; refusing to write project settings");
    this.projectSettings = structuredClone(settings);
    this.settings = deepMergeSettings(this.globalSettings, this.projectSettings);
    if (this.projectSettingsLoadError) return;
    const snapshot = structuredClone(this.projectSettings);
    const fields = new Set(this.modifiedProjectFields);
    const nested = SettingsManagerCore.cloneNested(this.modifiedProjectNestedFields);
    this.enqueueWrite("project", () => this.persist("project", snapshot, fields, nested));
  }
}
