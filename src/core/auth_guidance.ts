/**
 * The texts that tell a user how to make a model available (same wording as the reference).
 *
 * @module
 */
import { join } from "../util/path.ts";
import { getDocumentationPaths } from "../resources/documentation.ts";

const UNKNOWN_PROVIDER = "unknown";

/** How to log in or configure a provider. */
export function getProviderLoginHelp(): string {
  const { docs } = getDocumentationPaths();
  return [
    "Use /login to log into a provider via OAuth or API key. See:",
    `  ${join(docs, "providers.md")}`,
    `  ${join(docs, "models.md")}`,
  ].join("\n");
}

/** When no model has usable credentials. */
export function formatNoModelsAvailableMessage(): string {
  return `No models available. ${getProviderLoginHelp()}`;
}

/** When a prompt is sent without a model. */
export function formatNoModelSelectedMessage(): string {
  return `No model selected.\n\n${getProviderLoginHelp()}\n\nThen use /model to select a model.`;
}

/** When the selected model's provider has no key. */
export function formatNoApiKeyFoundMessage(provider: string): string {
  const who = provider === UNKNOWN_PROVIDER ? "the selected model" : provider;
  return `No API key found for ${who}.\n\n${getProviderLoginHelp()}`;
}
