/**
 * `/changelog`: pi 1.6.0's "What's New" block with the entries of pi for Deno's own CHANGELOG.md
 * (not pi's: this build's changes are what its user asks about), oldest first so that the newest
 * sits just above the editor. The file is read from the source checkout, else from the
 * documentation a bundle or compiled binary carries (scripts/gen_docs.ts bundles CHANGELOG.md).
 * With no entries the block says "No changelog entries found.", as 1.6.0 does.
 *
 * @module
 */
import { getDocumentationPaths } from "../../resources/documentation.ts";
import { dirname, join } from "../../util/path.ts";
import { Markdown, Spacer, Text } from "../../tui/mod.ts";
import type { ChatView } from "./chat_view.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** One `## [x.y.z] …` section of a changelog, its heading line included. */
export interface ChangelogEntry {
  version: string;
  content: string;
}

/**
 * The version sections of `text`, in file order. A `## ` heading without a version ends the
 * section before it and starts none (1.6.0's `parseChangelog`; `## [Unreleased]` is left out).
 */
export function parseChangelog(text: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  let version: string | undefined;
  let lines: string[] = [];
  const finish = () => {
    if (version && lines.length > 0) entries.push({ version, content: lines.join("\n").trim() });
  };
  for (const line of text.split("\n")) {
    if (!line.startsWith("## ")) {
      if (version) lines.push(line);
      continue;
    }
    finish();
    const match = /^##\s+\[?(\d+)\.(\d+)\.(\d+)\]?/.exec(line);
    version = match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
    lines = match ? [line] : [];
  }
  finish();
  return entries;
}

/**
 * The changelog's text, or undefined when this build has none. `root` is where the documentation
 * lives: the source checkout, or the agent-dir copy of the bundled documentation (see
 * src/resources/documentation.ts), so a bundle never reads a CHANGELOG.md that merely happens to
 * lie two folders above it.
 */
export async function readChangelog(
  root: string = dirname(getDocumentationPaths().readme),
): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(join(root, "CHANGELOG.md"));
  } catch {
    // A checkout without one, or a copy still being written: the bundle's text, if it has one.
  }
  const { DOCUMENTATION_FILES } = await import("../../resources/documentation_bundle.ts");
  return DOCUMENTATION_FILES["CHANGELOG.md"];
}

/** The markdown the block shows: every entry, oldest first, or 1.6.0's words for none. */
export function changelogMarkdown(text: string | undefined): string {
  const entries = text ? parseChangelog(text) : [];
  return entries.length > 0
    ? entries.reverse().map((e) => e.content).join("\n\n")
    : "No changelog entries found.";
}

/** What the command writes to. */
export interface ChangelogHost {
  readonly theme: Theme;
  readonly chat: ChatView;
  requestRender(): void;
}

/** Adds the "What's New" block to the chat. */
export async function showChangelog(app: ChangelogHost): Promise<void> {
  const theme = app.theme;
  const markdown = changelogMarkdown(await readChangelog());
  app.chat.addBlock(
    new BorderLine(theme),
    new Text(theme.bold(theme.fg("accent", "What's New")), 1, 0),
    new Spacer(1),
    new Markdown(markdown, 1, 1, theme.markdown()),
    new BorderLine(theme),
  );
  app.requestRender();
}
