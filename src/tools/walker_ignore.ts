/**
 * Ignore-file rules for the built-in walker, layered the way ripgrep/fd (the `ignore` crate)
 * layer them: tool-specific files (`.rgignore`/`.fdignore`) beat `.ignore`, which beats
 * `.gitignore`, which beats `.git/info/exclude`; within one kind the deepest folder decides.
 *
 * @module
 */
import ignore from "npm:ignore@7.0.17";
import { dirname, join, relative, sep } from "../util/path.ts";

/** The kinds of ignore sources, highest precedence first. */
export type IgnoreKind = "custom" | "ignore" | "gitignore" | "exclude";

const KIND_ORDER: IgnoreKind[] = ["custom", "ignore", "gitignore", "exclude"];

interface Matcher {
  /** Folder the rules are relative to. */
  base: string;
  test: (rel: string) => { ignored: boolean; unignored: boolean };
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function isGitDir(dir: string): boolean {
  try {
    Deno.statSync(join(dir, ".git"));
    return true;
  } catch {
    return false;
  }
}

function makeMatcher(base: string, text: string): Matcher | null {
  if (!text.trim()) return null;
  // Git on Linux matches case-sensitively, and so do ripgrep and fd.
  const ig = ignore({ ignorecase: false }).add(text);
  return { base, test: (rel) => ig.test(rel) };
}

/** Which ignore files a walk honours. */
export interface IgnoreConfig {
  /** Tool-specific ignore file name (`.rgignore`, `.fdignore`), highest precedence. */
  customIgnoreFile?: string;
  /** Apply `.gitignore` only inside git repositories (ripgrep's default; fd with --no-require-git says false). */
  gitignoreRequiresGit: boolean;
}

/**
 * Immutable stack of matchers for one folder; `child()` returns the stack for a subfolder.
 */
export class IgnoreStack {
  private constructor(
    private readonly config: IgnoreConfig,
    private readonly matchers: Record<IgnoreKind, Matcher[]>,
    /** Whether this folder is inside a git work tree. */
    readonly inGit: boolean,
  ) {}

  /** Builds the stack for a walk root, loading the rules of its ancestors as the tools do. */
  static forRoot(root: string, config: IgnoreConfig): IgnoreStack {
    const chain: string[] = [];
    for (let dir = root;; dir = dirname(dir)) {
      chain.unshift(dir);
      if (dirname(dir) === dir) break;
    }
    let gitRootIndex = -1;
    for (let i = chain.length - 1; i >= 0; i--) {
      if (isGitDir(chain[i])) {
        gitRootIndex = i;
        break;
      }
    }
    let stack = new IgnoreStack(config, { custom: [], ignore: [], gitignore: [], exclude: [] }, false);
    for (let i = 0; i < chain.length; i++) {
      stack = stack.#withDir(chain[i], gitRootIndex !== -1 && i >= gitRootIndex, i === chain.length - 1);
    }
    return stack;
  }

  /** Stack for a subfolder of the folder this stack describes. */
  child(dir: string): IgnoreStack {
    return this.#withDir(dir, this.inGit || isGitDir(dir), true);
  }

  #withDir(dir: string, inGit: boolean, _inside: boolean): IgnoreStack {
    const add: Partial<Record<IgnoreKind, Matcher>> = {};
    if (this.config.customIgnoreFile) {
      const m = makeMatcher(dir, readText(join(dir, this.config.customIgnoreFile)) ?? "");
      if (m) add.custom = m;
    }
    const ig = makeMatcher(dir, readText(join(dir, ".ignore")) ?? "");
    if (ig) add.ignore = ig;
    if (inGit || !this.config.gitignoreRequiresGit) {
      const gi = makeMatcher(dir, readText(join(dir, ".gitignore")) ?? "");
      if (gi) add.gitignore = gi;
    }
    if (inGit) {
      const ex = makeMatcher(dir, readText(join(dir, ".git", "info", "exclude")) ?? "");
      if (ex) add.exclude = ex;
    }
    if (!add.custom && !add.ignore && !add.gitignore && !add.exclude && inGit === this.inGit) return this;
    const next = { ...this.matchers };
    for (const kind of KIND_ORDER) {
      const m = add[kind];
      if (m) next[kind] = [...next[kind], m];
    }
    return new IgnoreStack(this.config, next, inGit);
  }

  /** Whether `path` (absolute) should be skipped. */
  isIgnored(path: string, isDir: boolean): boolean {
    for (const kind of KIND_ORDER) {
      const list = this.matchers[kind];
      for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i];
        let rel = relative(m.base, path);
        if (!rel || rel.startsWith("..")) continue;
        if (sep !== "/") rel = rel.split(sep).join("/");
        const result = m.test(isDir ? `${rel}/` : rel);
        if (result.ignored) return true;
        if (result.unignored) return false;
      }
    }
    return false;
  }
}
