/**
 * Start-up warnings about broken configuration files, so a mistake in auth.json or models.json is shown
 * where it is (file, line, what is wrong) instead of surfacing later as "No API key found" or "Unknown
 * provider". pi 1.6.0 prints neither (docs/differences.md).
 *
 * @module
 */

import type { AuthStorage } from "./auth_storage.ts";
import type { ModelRegistry } from "./model_registry.ts";

/** One start-up warning; the shape of the runtime's and the CLI's diagnostics. */
export interface ConfigDiagnostic {
  type: "warning";
  message: string;
}

/**
 * The problems found while loading auth.json and models.json, as warnings. Messages name the file and never
 * include a credential. Empty when both files are fine (or absent).
 */
export function configLoadDiagnostics(
  authStorage: AuthStorage,
  modelRegistry: ModelRegistry,
): ConfigDiagnostic[] {
  const messages = [...authStorage.getLoadProblems()];
  const modelsError = modelRegistry.getError();
  if (modelsError) messages.push(modelsError);
  // pi 1.0.3 renamed the provider and migrates nothing; say so instead of silently ignoring the entry.
  if (authStorage.has(OLD_AZURE) && !authStorage.has("azure")) {
    messages.push(
      `auth.json has credentials for "${OLD_AZURE}", which is now called "azure": ` +
        `rename the key in auth.json (or log in again) to use them.`,
    );
  }
  return messages.map((message) => ({ type: "warning", message }));
}

const OLD_AZURE = "azure-openai-responses";
