/**
 * Loads the resource parsers eagerly, for the SDK entry point: code that calls `loadSkills` or
 * `loadPromptTemplates` directly never needs to await anything first.
 *
 * @module
 */
import { parse } from "npm:yaml@2.9.1";
import ignore from "npm:ignore@7.0.17";
import { minimatch } from "npm:minimatch@10.2.6";
import { setResourceDeps } from "./resource_deps.ts";

setResourceDeps({
  parseYaml: (text) => parse(text),
  createIgnore: () => ignore(),
  minimatch: (path, pattern) => minimatch(path, pattern),
});
