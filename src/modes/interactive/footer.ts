/**
 * The footer of pi 1.6.0: the working folder (with `~`, the git branch and the session name),
 * then the token, cost and context figures on the left and the model on the right, dimmed; below
 * them the extensions' statuses.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve, sep } from "../../util/path.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import { type Component, truncateToWidth, visibleWidth } from "../../tui/mod.ts";
import type { Theme } from "./theme.ts";

/** Token counts as the footer shows them: 999, 1.2k, 45k, 1.5M, 12M. */
export function formatTokens(count: number): string {
  if (count < 1000) return count.toString();
  if (count < 10000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1000000) return `${Math.round(count / 1000)}k`;
  if (count < 10000000) return `${(count / 1000000).toFixed(1)}M`;
  return `${Math.round(count / 1000000)}M`;
}

/** `cwd` with the home folder written `~` when it lies inside it. */
export function formatCwdForFooter(cwd: string, home: string | undefined): string {
  if (!home) return cwd;
  const rel = relative(resolve(home), resolve(cwd));
  const inside = rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  if (!inside) return cwd;
  return rel === "" ? "~" : `~${sep}${rel}`;
}

/**
 * The current branch from `.git/HEAD` of `cwd` or a parent folder (a worktree's `.git` file is
 * followed); undefined outside a repository, "detached" for a detached HEAD. No git process runs.
 */
export function readGitBranch(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, ".git");
    try {
      let gitDir = dotGit;
      if (Deno.statSync(dotGit).isFile) {
        const pointer = /^gitdir:\s*(.+)$/m.exec(Deno.readTextFileSync(dotGit));
        if (!pointer) return undefined;
        gitDir = resolve(dir, pointer[1].trim());
      }
      const head = Deno.readTextFileSync(join(gitDir, "HEAD")).trim();
      const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
      return ref ? ref[1] : "detached";
    } catch {
      const parent = resolve(dir, "..");
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

/** What the footer reads besides the session. */
export interface FooterData {
  /** The git branch, if any (read once; the start-up cost is one file read). */
  gitBranch?: string;
  /** The HOME folder for `~`. */
  home?: string;
  /** Extension statuses (`ctx.ui.setStatus`) by key: one line below the stats, sorted by key. */
  statuses?: ReadonlyMap<string, string>;
}

/** The footer component. */
export class Footer implements Component {
  /** Whether auto-compaction is on (the `(auto)` mark). */
  autoCompactEnabled = true;

  /** A footer over `getSession()` (the session can be replaced by /new). */
  constructor(
    private readonly getSession: () => AgentSession,
    private readonly theme: Theme,
    private readonly data: FooterData,
  ) {}

  /** Nothing is cached. */
  invalidate(): void {}

  /** The two footer lines. */
  render(width: number): string[] {
    const session = this.getSession();
    const theme = this.theme;
    const model = session.model;
    const stats = session.getSessionStats();
    const usage = stats.tokens;
    let pwd = formatCwdForFooter(session.sessionManager.getCwd(), this.data.home);
    if (this.data.gitBranch) pwd = `${pwd} (${this.data.gitBranch})`;
    const sessionName = session.sessionManager.getSessionName();
    if (sessionName) pwd = `${pwd} • ${sessionName}`;

    const parts: string[] = [];
    if (usage.input) parts.push(`↑${formatTokens(usage.input)}`);
    if (usage.output) parts.push(`↓${formatTokens(usage.output)}`);
    if (usage.cacheRead) parts.push(`R${formatTokens(usage.cacheRead)}`);
    if (usage.cacheWrite) parts.push(`W${formatTokens(usage.cacheWrite)}`);
    const hitRate = latestCacheHitRate(session);
    if ((usage.cacheRead > 0 || usage.cacheWrite > 0) && hitRate !== undefined) {
      parts.push(`CH${hitRate.toFixed(1)}%`);
    }
    if (stats.cost) parts.push(`$${stats.cost.toFixed(3)}`);
    const context = stats.contextUsage;
    const contextWindow = context?.contextWindow ?? model?.contextWindow ?? 0;
    const percentValue = context?.percent ?? 0;
    const percent = context?.percent !== null ? percentValue.toFixed(1) : "?";
    const auto = this.autoCompactEnabled ? " (auto)" : "";
    const contextText = `${percent === "?" ? "?" : `${percent}%`}/${formatTokens(contextWindow)}${auto}`;
    parts.push(
      percentValue > 90
        ? theme.fg("error", contextText)
        : percentValue > 70
        ? theme.fg("warning", contextText)
        : contextText,
    );
    let left = parts.join(" ");
    let leftWidth = visibleWidth(left);
    if (leftWidth > width) {
      left = truncateToWidth(left, width, "...");
      leftWidth = visibleWidth(left);
    }
    // Without a model 1.6.0's agent holds a placeholder whose id is "unknown".
    const modelName = model?.id ?? "unknown";
    let right = modelName;
    if (model?.reasoning) {
      const level = session.thinkingLevel || "off";
      right = level === "off" ? `${modelName} • thinking off` : `${modelName} • ${level}`;
    }
    // Within a model scope (--models, enabledModels, /scoped-models) only its providers count (1.6.0).
    const scoped = session.scopedModels.map((s) => s.model);
    const models = scoped.length > 0 ? scoped : session.modelRegistry.getAvailable();
    const providers = new Set(models.map((m) => m.provider));
    if (providers.size > 1 && model) {
      const withProvider = `(${model.provider}) ${right}`;
      if (leftWidth + 2 + visibleWidth(withProvider) <= width) right = withProvider;
    }
    let line = left;
    const rightWidth = visibleWidth(right);
    if (leftWidth + 2 + rightWidth <= width) {
      line = left + " ".repeat(width - leftWidth - rightWidth) + right;
    } else if (width - leftWidth - 2 > 0) {
      const cut = truncateToWidth(right, width - leftWidth - 2, "");
      line = left + " ".repeat(Math.max(0, width - leftWidth - visibleWidth(cut))) + cut;
    }
    // Dim the two parts apart: a coloured context figure ends with a reset that would end one dim.
    const statsLine = theme.fg("dim", left) + theme.fg("dim", line.slice(left.length));
    const lines = [truncateToWidth(theme.fg("dim", pwd), width, theme.fg("dim", "...")), statsLine];
    const statuses = this.data.statuses;
    if (statuses && statuses.size > 0) {
      const line = [...statuses.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        // One line: breaks and tabs become spaces, runs of spaces one.
        .map(([, text]) => text.replace(/[\r\n\t]/g, " ").replace(/ +/g, " ").trim())
        .join(" ");
      lines.push(truncateToWidth(line, width, theme.fg("dim", "...")));
    }
    return lines;
  }
}

/** The cache hit rate of the last reply, in percent; undefined when it had no prompt tokens. */
function latestCacheHitRate(session: AgentSession): number | undefined {
  const messages = session.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const u = (m as { usage?: { input: number; cacheRead: number; cacheWrite: number } }).usage;
    if (!u) return undefined;
    const prompt = u.input + u.cacheRead + u.cacheWrite;
    return prompt > 0 ? (u.cacheRead / prompt) * 100 : undefined;
  }
  return undefined;
}
