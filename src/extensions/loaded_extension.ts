/**
 * The record of one extension before its factory runs, shared by the in-process loader and the Worker host
 * so both start from the same empty registries.
 *
 * @module
 */
import type { DiscoveredExtension } from "./discovery.ts";
import type { BuiltExtension } from "./module_build.ts";
import type { LoadedExtension } from "./types.ts";

/** An extension found at `entry` and built as `built`, with nothing registered yet. */
export function emptyLoadedExtension(entry: DiscoveredExtension, built: BuiltExtension): LoadedExtension {
  return {
    path: entry.path,
    resolvedPath: entry.resolvedPath,
    handlers: new Map(),
    tools: new Map(),
    commands: new Map(),
    flags: new Map(),
    moduleUrls: [...built.sources.keys()],
    ...(entry.sourceInfo ? { sourceInfo: entry.sourceInfo } : {}),
  };
}
