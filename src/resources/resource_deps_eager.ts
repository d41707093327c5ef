/**
 * Loads the resource parsers eagerly, for the SDK entry point: code that calls `loadSkills` or
 * `loadPromptTemplates` directly never needs to await anything first.
 *
 * @module
 */
import { parse } from "yaml";
import ignore from "ignore";
import { minimatch } from "minimatch";
import { setResourceDeps } from "./resource_deps.ts";

setResourceDeps({
  parseYaml: (text) => parse(text),
  createIgnore: () => ignore(),
  minimatch: (path, pattern) => minimatch(path, pattern),
});
