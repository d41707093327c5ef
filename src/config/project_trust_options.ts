/**
 * The choices a person is offered when pi asks whether to trust a project folder (pi 1.6.0's start-up
 * question and its `/trust` selector share them): trust the folder, trust its parent, do not trust, and at
 * start-up also the "this session only" variants that save nothing.
 *
 * @module
 */
import { dirname } from "../util/path.ts";
import { canonicalProjectPath, type TrustDecision } from "./project_trust.ts";

/** One choice and what choosing it saves in trust.json. */
export interface ProjectTrustOption {
  /** The text shown, exactly as 1.6.0 shows it. */
  label: string;
  /** Whether the project's resources load after this choice. */
  trusted: boolean;
  /** The trust.json writes it makes (none for the session-only choices); `null` removes an entry. */
  updates: { path: string; decision: TrustDecision }[];
  /** The folder whose saved decision this choice is, when it saves one. */
  savedPath?: string;
}

/** The parent of the canonical project folder, or undefined at the filesystem root. */
export function projectTrustParentPath(cwd: string): string | undefined {
  const folder = canonicalProjectPath(cwd);
  const parent = dirname(folder);
  return parent === folder ? undefined : parent;
}

/**
 * The trust choices for `cwd`, in 1.6.0's order. `includeSessionOnly` adds the two choices that decide for
 * this run only (offered by the start-up question, not by `/trust`).
 */
export function projectTrustOptions(
  cwd: string,
  options?: { includeSessionOnly?: boolean },
): ProjectTrustOption[] {
  const folder = canonicalProjectPath(cwd);
  const choices: ProjectTrustOption[] = [
    { label: "Trust", trusted: true, updates: [{ path: folder, decision: true }], savedPath: folder },
  ];
  const parent = projectTrustParentPath(cwd);
  if (parent !== undefined) {
    // Trusting the parent also drops the folder's own entry, so the parent's decision is the one that applies.
    choices.push({
      label: `Trust parent folder (${parent})`,
      trusted: true,
      updates: [{ path: parent, decision: true }, { path: folder, decision: null }],
      savedPath: parent,
    });
  }
  if (options?.includeSessionOnly) {
    choices.push({ label: "Trust (this session only)", trusted: true, updates: [] });
  }
  choices.push({
    label: "Do not trust",
    trusted: false,
    updates: [{ path: folder, decision: false }],
    savedPath: folder,
  });
  if (options?.includeSessionOnly) {
    choices.push({ label: "Do not trust (this session only)", trusted: false, updates: [] });
  }
  return choices;
}

/** The start-up question's title, as 1.6.0 words it. */
export function projectTrustPromptTitle(cwd: string, appName: string, configDirName: string): string {
  return `Trust project folder?\n${
    canonicalProjectPath(cwd)
  }\n\nThis allows ${appName} to load ${configDirName} ` +
    "settings and resources, install missing project packages, and execute project extensions.";
}
