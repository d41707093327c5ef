/**
 * The rows of the `pi config` selector (pi 1.6.0): resources grouped by where they come from
 * (packages first, then the user's before the project's), each group split by kind (extensions,
 * skills, prompts, themes), items sorted by the name shown.
 *
 * @module
 */
import { CONFIG_DIR_NAME } from "../../config/paths.ts";
import type { ResolvedResource, ResourceMetadata } from "../../resources/resource_discovery.ts";
import { basename, dirname } from "../../util/path.ts";

/** The four kinds, in the order the selector shows them. */
export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;
/** One of {@link RESOURCE_KINDS}. */
export type ResourceKind = typeof RESOURCE_KINDS[number];

const KIND_LABELS: Record<ResourceKind, string> = {
  extensions: "Extensions",
  skills: "Skills",
  prompts: "Prompts",
  themes: "Themes",
};

/** Path prefix of the built-in extensions (`builtin:mcp`). */
export const BUILTIN_PATH_PREFIX = "builtin:";

/** One resource row. */
export interface ConfigItem {
  path: string;
  enabled: boolean;
  metadata: ResourceMetadata;
  kind: ResourceKind;
  displayName: string;
}

/** The rows of one kind inside a group. */
export interface ConfigSubgroup {
  kind: ResourceKind;
  label: string;
  items: ConfigItem[];
}

/** All resources from one source. */
export interface ConfigGroup {
  key: string;
  label: string;
  scope: string;
  origin: string;
  source: string;
  subgroups: ConfigSubgroup[];
}

/** Resources by kind, as the resolver gives them. */
export type ResourcesByKind = Record<ResourceKind, ResolvedResource[]>;

/** `~` for the home folder; always ends with `/`. */
function formatBaseDir(baseDir: string, home: string): string {
  const shown =
    (home && (baseDir === home || baseDir.startsWith(`${home}/`))
      ? `~${baseDir.slice(home.length)}`
      : baseDir).replace(/\\/g, "/");
  return shown.endsWith("/") ? shown : `${shown}/`;
}

function groupLabel(metadata: ResourceMetadata, agentDir: string, home: string): string {
  if (metadata.origin === "package") return `${metadata.source} (${metadata.scope})`;
  if (metadata.source === "builtin") {
    return metadata.scope === "user" ? "Built-in" : "Built-in (project override)";
  }
  if (metadata.source === "auto") {
    if (metadata.baseDir) {
      return metadata.scope === "user"
        ? `User (${formatBaseDir(metadata.baseDir, home)})`
        : `Project (${formatBaseDir(metadata.baseDir, home)})`;
    }
    return metadata.scope === "user"
      ? `User (${formatBaseDir(agentDir, home)})`
      : `Project (${CONFIG_DIR_NAME}/)`;
  }
  return metadata.scope === "user" ? "User settings" : "Project settings";
}

function displayNameOf(path: string, kind: ResourceKind, metadata: ResourceMetadata): string {
  const file = basename(path);
  const parent = basename(dirname(path));
  if (metadata.source === "builtin") return path.slice(BUILTIN_PATH_PREFIX.length);
  if (kind === "extensions" && parent !== "extensions") return `${parent}/${file}`;
  if (kind === "skills" && file === "SKILL.md") return parent;
  return file;
}

/** Groups `resources` for the selector, sorted as 1.6.0 sorts them. */
export function buildGroups(resources: ResourcesByKind, agentDir: string, home: string): ConfigGroup[] {
  const groups = new Map<string, ConfigGroup>();
  for (const kind of RESOURCE_KINDS) {
    for (const { path, enabled, metadata } of resources[kind]) {
      const key = `${metadata.origin}:${metadata.scope}:${metadata.source}:${metadata.baseDir ?? ""}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          key,
          label: groupLabel(metadata, agentDir, home),
          scope: metadata.scope,
          origin: metadata.origin,
          source: metadata.source,
          subgroups: [],
        };
        groups.set(key, group);
      }
      let subgroup = group.subgroups.find((s) => s.kind === kind);
      if (!subgroup) {
        subgroup = { kind, label: KIND_LABELS[kind], items: [] };
        group.subgroups.push(subgroup);
      }
      subgroup.items.push({
        path,
        enabled,
        metadata,
        kind,
        displayName: displayNameOf(path, kind, metadata),
      });
    }
  }
  const sorted = [...groups.values()].sort((a, b) => {
    if (a.origin !== b.origin) return a.origin === "package" ? -1 : 1;
    if (a.scope !== b.scope) return a.scope === "user" ? -1 : 1;
    return a.source.localeCompare(b.source);
  });
  for (const group of sorted) {
    group.subgroups.sort((a, b) => RESOURCE_KINDS.indexOf(a.kind) - RESOURCE_KINDS.indexOf(b.kind));
    for (const subgroup of group.subgroups) {
      subgroup.items.sort((a, b) => a.displayName.localeCompare(b.displayName));
    }
  }
  return sorted;
}
