/**
 * `--list-models [search]` (CLI-17): the models that have auth configured, fuzzy-filtered on
 * "provider id", sorted by provider then id, as a space-padded table (trailing spaces kept).
 *
 * @module
 */
import type { Model } from "../ai/types.ts";
import type { ModelRegistry } from "../config/model_registry.ts";
import { formatNoModelsAvailableMessage } from "../core/auth_guidance.ts";
import { fuzzyFilter } from "./fuzzy.ts";
import { yellow } from "../util/style.ts";

/** Token counts the way the table shows them: `200K`, `1M`, `8.2K`, `500`. */
export function formatTokenCount(count: number): string {
  if (count >= 1_000_000) {
    const millions = count / 1_000_000;
    return millions % 1 === 0 ? `${millions}M` : `${millions.toFixed(1)}M`;
  }
  if (count >= 1_000) {
    const thousands = count / 1_000;
    return thousands % 1 === 0 ? `${thousands}K` : `${thousands.toFixed(1)}K`;
  }
  return count.toString();
}

/** What `--list-models` prints: `out` is the listing, `warnings` go to stderr before it. */
export interface ModelListing {
  warnings: string[];
  out: string;
}

const COLUMNS = ["provider", "model", "context", "max-out", "thinking", "images"] as const;

function row(m: Model): string[] {
  return [
    m.provider,
    m.id,
    formatTokenCount(m.contextWindow),
    formatTokenCount(m.maxTokens),
    m.reasoning ? "yes" : "no",
    m.input.includes("image") ? "yes" : "no",
  ];
}

/**
 * Builds the `--list-models` output for the registry's available models. `reportLoadError: false`
 * leaves out the models.json warning when start-up diagnostics already showed it.
 */
export function formatModelList(
  registry: ModelRegistry,
  search?: string,
  options: { reportLoadError?: boolean } = {},
): ModelListing {
  const warnings: string[] = [];
  const loadError = registry.getError();
  if (loadError && options.reportLoadError !== false) {
    warnings.push(yellow(`Warning: errors loading models.json:\n${loadError}`));
  }
  const models = registry.getAvailable();
  if (models.length === 0) return { warnings, out: `${formatNoModelsAvailableMessage()}\n` };
  const filtered = search ? fuzzyFilter(models, search, (m) => `${m.provider} ${m.id}`) : [...models];
  if (filtered.length === 0) return { warnings, out: `No models matching "${search}"\n` };
  filtered.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
  const rows = [[...COLUMNS] as string[], ...filtered.map(row)];
  const widths = COLUMNS.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
  return { warnings, out: `${lines.join("\n")}\n` };
}
