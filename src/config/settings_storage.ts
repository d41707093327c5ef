/**
 * Where settings text lives (files under a lock, or memory) plus the pure rules applied to it:
 * migrations of old keys, the global/project merge, and how a write is folded into the current file.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";

import { dirname, join } from "../util/path.ts";
import { CONFIG_DIR_NAME } from "./paths.ts";
import { lockFileSync, type SyncRelease } from "./file_lock.ts";
import { parseJsonc, rewriteJsonc } from "./jsonc.ts";
import { describeJsonError } from "./json_error.ts";
import type { Settings, SettingsScope, SettingsStorage } from "./settings_types.ts";

type JsonObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Settings backed by `<agentDir>/settings.json` and `<cwd>/.pi/settings.json`, locked per file. */
export class FileSettingsStorage implements SettingsStorage {
  private readonly globalSettingsPath: string;
  private readonly projectSettingsPath: string;

  constructor(cwd: string, agentDir: string) {
    this.globalSettingsPath = join(agentDir, "settings.json");
    this.projectSettingsPath = join(cwd, CONFIG_DIR_NAME, "settings.json");
  }

  /** The file behind a scope. */
  pathFor(scope: SettingsScope): string {
    return scope === "global" ? this.globalSettingsPath : this.projectSettingsPath;
  }

  /** Reads (and optionally rewrites) one scope's file; a missing file is neither locked nor created on read. */
  withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void {
    const path = scope === "global" ? this.globalSettingsPath : this.projectSettingsPath;
    let release: SyncRelease | undefined;
    try {
      const exists = existsSync(path);
      if (exists) release = lockFileSync(path);
      const current = exists ? Deno.readTextFileSync(path) : undefined;
      const next = fn(current);
      if (next !== undefined) {
        Deno.mkdirSync(dirname(path), { recursive: true });
        if (!release) release = lockFileSync(path);
        Deno.writeTextFileSync(path, next);
      }
    } finally {
      release?.();
    }
  }
}

/** Settings kept in memory only (tests, SDK embedding). */
export class InMemorySettingsStorage implements SettingsStorage {
  private global: string | undefined;
  private project: string | undefined;

  /** Same contract as the file storage, without any I/O. */
  withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void {
    const next = fn(scope === "global" ? this.global : this.project);
    if (next === undefined) return;
    if (scope === "global") this.global = next;
    else this.project = next;
  }
}

function deepMergeObjects(base: JsonObject, overrides: JsonObject): JsonObject {
  const result: JsonObject = { ...base };
  for (const [key, overrideValue] of Object.entries(overrides)) {
    if (overrideValue === undefined) continue;
    const baseValue = base[key];
    result[key] = isPlainObject(overrideValue) && isPlainObject(baseValue)
      ? deepMergeObjects(baseValue, overrideValue)
      : overrideValue;
  }
  return result;
}

function isToolModifier(entry: unknown): boolean {
  return typeof entry === "string" && (entry.startsWith("+") || entry.startsWith("-"));
}

/**
 * Merges project (or override) settings over a base as 1.6.0 does: plain objects merge recursively, arrays
 * and other values replace, except `defaultTools`, where a list of only `+name`/`-name` entries is appended
 * to the inherited list (it modifies it) instead of replacing it.
 */
export function deepMergeSettings(base: Settings, overrides: Settings): Settings {
  const merged = deepMergeObjects(base as JsonObject, overrides as JsonObject);
  const baseTools = (base as JsonObject).defaultTools;
  const overrideTools = (overrides as JsonObject).defaultTools;
  if (
    overrideTools !== undefined && Array.isArray(baseTools) && Array.isArray(overrideTools) &&
    overrideTools.every(isToolModifier)
  ) {
    merged.defaultTools = [...baseTools, ...overrideTools];
  }
  return merged as Settings;
}

/** Rewrites keys from older releases into their current form (mutates and returns `settings`). */
export function migrateSettings(settings: JsonObject): Settings {
  if ("queueMode" in settings && !("steeringMode" in settings)) {
    settings.steeringMode = settings.queueMode;
    delete settings.queueMode;
  }
  if (!("transport" in settings) && typeof settings.websockets === "boolean") {
    settings.transport = settings.websockets ? "websocket" : "sse";
    delete settings.websockets;
  }
  if (isPlainObject(settings.skills)) {
    const skills = settings.skills;
    if (skills.enableSkillCommands !== undefined && settings.enableSkillCommands === undefined) {
      settings.enableSkillCommands = skills.enableSkillCommands;
    }
    if (Array.isArray(skills.customDirectories) && skills.customDirectories.length > 0) {
      settings.skills = skills.customDirectories;
    } else {
      delete settings.skills;
    }
  }
  if (isPlainObject(settings.retry)) {
    const retry = settings.retry;
    const provider = isPlainObject(retry.provider) ? retry.provider : undefined;
    if (
      typeof retry.maxDelayMs === "number" &&
      (provider?.maxRetryDelayMs === undefined || provider?.maxRetryDelayMs === null)
    ) {
      retry.provider = { ...(provider ?? {}), maxRetryDelayMs: retry.maxDelayMs };
    }
    delete retry.maxDelayMs;
  }
  return settings as Settings;
}

/** Parses settings text (JSON or JSONC) and migrates it; throws the parser's SyntaxError when broken. */
export function parseSettingsText(content: string): Settings {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  let value: unknown;
  try {
    value = parseJsonc(text).value;
  } catch (error) {
    // Never quote the file (V8 can): say where and what.
    throw new SyntaxError(describeJsonError(text, error));
  }
  // 1.6.0 takes an array as an object with keys "0", "1", … and writes that back; refuse it instead.
  if (!isPlainObject(value)) throw new SyntaxError("expected an object of settings");
  return migrateSettings(value);
}

/**
 * Folds the modified fields of `snapshot` into the file's current text. Only modified keys (and, for nested
 * objects, only modified sub-keys) are taken from memory, so concurrent writers of other keys are kept.
 * Plain JSON files are re-serialized like the reference (2-space indent, no trailing newline); JSONC files
 * are edited in place so their comments survive.
 */
export function foldModifiedSettings(
  current: string | undefined,
  snapshot: Settings,
  modifiedFields: ReadonlySet<string>,
  modifiedNestedFields: ReadonlyMap<string, ReadonlySet<string>>,
): string {
  const text = current?.charCodeAt(0) === 0xfeff ? current.slice(1) : current;
  let parsed: { value: unknown; isJsonc: boolean };
  try {
    parsed = text ? parseJsonc(text) : { value: {}, isJsonc: false };
  } catch (error) {
    throw new SyntaxError(describeJsonError(text ?? "", error));
  }
  const raw = isPlainObject(parsed.value) ? parsed.value : {};
  const fileSettings = migrateSettings(structuredClone(raw)) as JsonObject;
  const merged: JsonObject = { ...fileSettings };
  const memory = snapshot as JsonObject;
  for (const field of modifiedFields) {
    const value = memory[field];
    const nestedKeys = modifiedNestedFields.get(field);
    if (nestedKeys && typeof value === "object" && value !== null) {
      const nested: JsonObject = { ...(fileSettings[field] as JsonObject | undefined ?? {}) };
      for (const nestedKey of nestedKeys) nested[nestedKey] = (value as JsonObject)[nestedKey];
      merged[field] = nested;
    } else {
      merged[field] = value;
    }
  }
  if (parsed.isJsonc && text !== undefined) return rewriteJsonc(text, raw, merged);
  return JSON.stringify(merged, null, 2);
}
