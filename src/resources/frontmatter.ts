/**
 * YAML frontmatter of Markdown resources (skills, prompt templates). A file has frontmatter only
 * when it starts with `---` and a later line starts with `---`; line endings are normalised first.
 *
 * @module
 */
import { resourceDeps } from "./resource_deps.ts";

/** A parsed file: its frontmatter fields and its trimmed body. */
export interface ParsedFrontmatter<T = Record<string, unknown>> {
  /** The parsed frontmatter. */
  frontmatter: T;
  /** The text after it. */
  body: string;
}

/** Splits a Markdown file into frontmatter (YAML) and body. Throws on invalid YAML. */
export function parseFrontmatter<T = Record<string, unknown>>(content: string): ParsedFrontmatter<T> {
  const text = content.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  if (!text.startsWith("---")) return { frontmatter: {} as T, body: text };
  const end = text.indexOf("\n---", 3);
  if (end === -1) return { frontmatter: {} as T, body: text };
  const yamlText = text.slice(4, end);
  const body = text.slice(end + 4).trim();
  if (!yamlText) return { frontmatter: {} as T, body };
  return { frontmatter: (resourceDeps().parseYaml(yamlText) ?? {}) as T, body };
}

/** The body without its frontmatter (the YAML itself is not parsed). */
export function stripFrontmatter(content: string): string {
  const text = content.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  if (!text.startsWith("---")) return text;
  const end = text.indexOf("\n---", 3);
  return end === -1 ? text : text.slice(end + 4).trim();
}
