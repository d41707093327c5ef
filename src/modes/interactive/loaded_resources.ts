/**
 * What pi 1.6.0 lists under the start-up header: the loaded context files, skills, prompt templates and
 * extensions (`[Context]`, `[Skills]`, `[Prompts]`, `[Extensions]`), each a compact comma-separated line that
 * Ctrl+O expands into paths grouped by scope (project, user, path) and package; then the problems met loading
 * them (`[Skill warnings]`, `[Prompt conflicts]`, `[Extension issues]`). The listing shows when `quietStartup`
 * is `false` (the default); the problems show always.
 *
 * @module
 */
import { Container, Spacer, Text } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { ExtensionHost } from "../../core/extension_host.ts";
import type { ResourceDiagnostic } from "../../resources/skills.ts";
import type { SourceInfo } from "../../resources/source_info.ts";
import { parseGitSource } from "../../resources/packages/package_source.ts";
import { dirname, isAbsolute, relative, resolve } from "../../util/path.ts";
import type { Theme } from "./theme.ts";
import { shortenHome } from "./tool_renderers.ts";

/** A resource's file and where it came from. */
interface Item {
  path: string;
  sourceInfo?: SourceInfo;
}

/** Text that is one of two strings, switched by Ctrl+O. */
class ExpandableSection extends Text {
  /** A section showing `collapsed` until expanded. */
  constructor(private readonly collapsed: string, private readonly expanded: string, open: boolean) {
    super(open ? expanded : collapsed, 0, 0);
  }

  /** Shows the expanded or the compact text. */
  setExpanded(open: boolean): void {
    this.setText(open ? this.expanded : this.collapsed);
  }
}

const isPackage = (info?: SourceInfo) => {
  const source = info?.source ?? "";
  return source.startsWith("npm:") || source.startsWith("git:");
};

/** The loaded-resources block between the header and the chat. */
export class LoadedResources extends Container {
  #sections: ExpandableSection[] = [];
  /** What {@link show} was given, to list again in new colours after a theme change. */
  #shown?: [AgentSession, ExtensionHost | undefined, boolean, boolean];
  #themeVersion = -1;

  /** An empty block; {@link show} fills it. */
  constructor(private readonly theme: Theme, private readonly home?: string) {
    super();
  }

  /** Expands or collapses every section (Ctrl+O). */
  setExpanded(expanded: boolean): void {
    if (this.#shown) this.#shown[3] = expanded;
    for (const section of this.#sections) section.setExpanded(expanded);
  }

  /** After a theme change the block is listed again (1.6.0 builds its text on demand). */
  override invalidate(): void {
    if (this.#shown && this.theme.version !== this.#themeVersion) this.show(...this.#shown);
    super.invalidate();
  }

  /** Lists `session`'s resources (when `listing`) and their problems, replacing what was shown. */
  show(
    session: AgentSession,
    extensions: ExtensionHost | undefined,
    listing: boolean,
    expanded: boolean,
  ): void {
    this.#shown = [session, extensions, listing, expanded];
    this.#themeVersion = this.theme.version;
    this.clear();
    this.#sections = [];
    const loader = session.resourceLoader;
    const cwd = session.sessionManager.getCwd();
    const skills = loader.getSkills();
    const prompts = loader.getPrompts();
    const loaded: Item[] = (extensions?.runner.extensions ?? [])
      .filter((extension) => !extension.path.startsWith("builtin:"))
      .map((extension) => ({ path: extension.resolvedPath, sourceInfo: extension.sourceInfo }));
    const infos = new Map<string, SourceInfo>();
    for (const item of loaded) if (item.sourceInfo) infos.set(item.path, item.sourceInfo);
    for (const skill of skills.skills) infos.set(skill.filePath, skill.sourceInfo);
    for (const prompt of prompts.prompts) infos.set(prompt.filePath, prompt.sourceInfo);

    if (listing) {
      const context = [
        ...[loader.getSystemPromptSource?.()].filter((p): p is string => !!p),
        ...(loader.getAppendSystemPromptSources?.() ?? []),
        ...loader.getAgentsFiles().agentsFiles.map((f) => f.path),
      ];
      if (context.length > 0) {
        this.addChild(new Spacer(1));
        this.#section(
          "Context",
          this.#compact(context.map((p) => this.#contextPath(p, cwd)), false),
          context.map((p) => this.theme.fg("dim", `  ${this.#display(p)}`)).join("\n"),
          expanded,
        );
      }
      if (skills.skills.length > 0) {
        const items = skills.skills.map((s) => ({ path: s.filePath, sourceInfo: s.sourceInfo }));
        this.#section(
          "Skills",
          this.#compact(skills.skills.map((s) => s.name)),
          this.#groups(
            items,
            (item) => this.#display(item.path),
            (item) => this.#shortPath(item.path, item.sourceInfo),
          ),
          expanded,
        );
      }
      const templates = session.promptTemplates;
      if (templates.length > 0) {
        const byPath = new Map(templates.map((t) => [t.filePath, t]));
        const name = (item: Item) => {
          const template = byPath.get(item.path);
          return template ? `/${template.name}` : this.#display(item.path);
        };
        this.#section(
          "Prompts",
          this.#compact(templates.map((t) => `/${t.name}`)),
          this.#groups(templates.map((t) => ({ path: t.filePath, sourceInfo: t.sourceInfo })), name, name),
          expanded,
        );
      }
      if (loaded.length > 0) {
        this.#section(
          "Extensions",
          this.#compact(this.#extensionLabels(loaded)),
          this.#groups(
            loaded,
            (item) => this.#extensionPath(item.path),
            (item) => this.#extensionPath(this.#shortPath(item.path, item.sourceInfo)),
          ),
          expanded,
        );
      }
    }
    this.#problems("[Skill warnings]", skills.diagnostics, infos);
    this.#problems("[Prompt conflicts]", prompts.diagnostics, infos);
    const extensionProblems: ResourceDiagnostic[] = [
      ...(extensions?.loadErrors ?? []).map((e) => ({
        type: "error" as const,
        message: e.error,
        path: e.path,
      })),
      ...(extensions?.warnings ?? []).map((message) => ({ type: "warning" as const, message })),
    ];
    this.#problems("[Extension issues]", extensionProblems, infos);
  }

  #section(name: string, collapsed: string, expandedBody: string, expanded: boolean): void {
    const heading = this.theme.fg("mdHeading", `[${name}]`);
    const section = new ExpandableSection(
      `${heading}\n${collapsed}`,
      `${heading}\n${expandedBody}`,
      expanded,
    );
    this.#sections.push(section);
    this.addChild(section);
    this.addChild(new Spacer(1));
  }

  #compact(labels: string[], sort = true): string {
    const list = labels.map((l) => l.trim()).filter((l) => l.length > 0);
    if (sort) list.sort((a, b) => a.localeCompare(b));
    return this.theme.fg("dim", `  ${list.join(", ")}`);
  }

  #display(path: string): string {
    return shortenHome(path, this.home);
  }

  #contextPath(path: string, cwd: string): string {
    const base = resolve(cwd);
    const absolute = isAbsolute(path) ? resolve(path) : resolve(base, path);
    const rel = relative(base, absolute);
    if (rel === "") return ".";
    if (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel)) return rel;
    return this.#display(absolute);
  }

  #extensionPath(path: string): string {
    return this.#display(path).replace(/\/index\.[tj]s$/, "");
  }

  /** A path relative to its package's folder, else shortened. */
  #shortPath(path: string, info?: SourceInfo): string {
    const base = info?.baseDir;
    if (base && isPackage(info)) {
      const npmRoot = base.match(/^(.*\/node_modules)\/(@?[^/]+(?:\/[^/]+)?)$/);
      if (npmRoot?.[1] && path.startsWith(`${npmRoot[1]}/`)) return relative(base, path);
      const rel = relative(resolve(base), resolve(path));
      if (rel && rel !== "." && !rel.startsWith("..") && !isAbsolute(rel)) return rel;
    }
    const source = info?.source ?? "";
    const npm = path.match(/node_modules\/(@?[^/]+(?:\/[^/]+)?)\/(.*)/);
    if (npm && source.startsWith("npm:")) return npm[2];
    const git = path.match(/git\/[^/]+\/[^/]+\/(.*)/);
    if (git && source.startsWith("git:")) return git[1];
    return this.#display(path);
  }

  /** Paths under `project`, `user` and `path`, each followed by its packages' paths. */
  #groups(
    items: Item[],
    formatPath: (item: Item) => string,
    formatPackagePath: (item: Item) => string,
  ): string {
    const groups = new Map<string, { paths: Item[]; packages: Map<string, Item[]> }>(
      ["project", "user", "path"].map((scope) => [scope, { paths: [], packages: new Map() }]),
    );
    for (const item of items) {
      const source = item.sourceInfo?.source ?? "local";
      const scope = item.sourceInfo?.scope ?? "project";
      const key = source === "cli" || scope === "temporary" ? "path" : scope === "user" ? "user" : "project";
      const group = groups.get(key)!;
      if (isPackage(item.sourceInfo)) {
        const list = group.packages.get(source) ?? [];
        list.push(item);
        group.packages.set(source, list);
      } else {
        group.paths.push(item);
      }
    }
    const lines: string[] = [];
    const byPath = (a: Item, b: Item) => a.path.localeCompare(b.path);
    for (const [scope, group] of groups) {
      if (group.paths.length === 0 && group.packages.size === 0) continue;
      lines.push(`  ${this.theme.fg("accent", scope)}`);
      for (const item of [...group.paths].sort(byPath)) {
        lines.push(this.theme.fg("dim", `    ${formatPath(item)}`));
      }
      for (const [source, list] of [...group.packages].sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`    ${this.theme.fg("mdLink", source)}`);
        for (const item of [...list].sort(byPath)) {
          lines.push(this.theme.fg("dim", `      ${formatPackagePath(item)}`));
        }
      }
    }
    return lines.join("\n");
  }

  /** Short unique labels: a package's name (and file inside it), else the fewest trailing path parts. */
  #extensionLabels(items: Item[]): string[] {
    const segmentsOf = (item: Item) => {
      const parts = this.#display(item.path).split("/").filter((s) => s.length > 0 && s !== "~");
      const last = parts[parts.length - 1];
      if (parts.length > 1 && (last === "index.ts" || last === "index.js")) parts.pop();
      return parts;
    };
    const local = items.filter((item) => !isPackage(item.sourceInfo)).map((item) => ({
      path: item.path,
      segments: segmentsOf(item),
    }));
    return items.map((item) => {
      if (isPackage(item.sourceInfo)) return this.#packageLabel(item);
      const index = local.findIndex((l) => l.path === item.path);
      const segments = local[index].segments;
      for (let count = 1; count <= segments.length; count++) {
        const candidate = segments.slice(-count).join("/");
        if (local.every((other, i) => i === index || other.segments.slice(-count).join("/") !== candidate)) {
          return candidate;
        }
      }
      return segments.join("/");
    });
  }

  #packageLabel(item: Item): string {
    const source = item.sourceInfo?.source ?? "";
    const git = parseGitSource(source);
    const label = source.startsWith("npm:") ? source.slice(4) || source : git ? git.path || source : source;
    const lastPart = () => {
      const parts = this.#shortPath(item.path, item.sourceInfo).split("/").filter((s) => s && s !== "~");
      return parts[parts.length - 1] ?? item.path;
    };
    if (!label) return lastPart();
    const short = this.#shortPath(item.path, item.sourceInfo);
    const inside = short.startsWith("extensions/") ? short.slice("extensions/".length) : short;
    const file = inside.slice(inside.lastIndexOf("/") + 1);
    const folder = inside.includes("/") ? dirname(inside) : "";
    if (file.replace(/\.[^.]*$/, "") === "index") {
      return folder && folder !== "." ? `${label}:${folder}` : label;
    }
    return `${label}:${inside}`;
  }

  /** `[title]` and each problem, grouped by name for collisions. */
  #problems(title: string, diagnostics: readonly ResourceDiagnostic[], infos: Map<string, SourceInfo>): void {
    if (diagnostics.length === 0) return;
    const t = this.theme;
    const lines: string[] = [];
    const collisions = new Map<string, ResourceDiagnostic[]>();
    const others: ResourceDiagnostic[] = [];
    for (const d of diagnostics) {
      if (d.type === "collision" && d.collision) {
        collisions.set(d.collision.name, [...(collisions.get(d.collision.name) ?? []), d]);
      } else {
        others.push(d);
      }
    }
    for (const [name, list] of collisions) {
      const first = list[0].collision!;
      lines.push(t.fg("warning", `  "${name}" collision:`));
      lines.push(t.fg("dim", `    ${t.fg("success", "✓")} ${this.#withSource(first.winnerPath, infos)}`));
      for (const d of list) {
        lines.push(
          t.fg(
            "dim",
            `    ${t.fg("warning", "✗")} ${this.#withSource(d.collision!.loserPath, infos)} (skipped)`,
          ),
        );
      }
    }
    for (const d of others) {
      const token = d.type === "error" ? "error" : "warning";
      if (d.path) {
        lines.push(t.fg(token, `  ${this.#withSource(d.path, infos)}`));
        lines.push(t.fg(token, `    ${d.message}`));
      } else {
        lines.push(t.fg(token, `  ${d.message}`));
      }
    }
    this.addChild(new Text(`${t.fg("warning", title)}\n${lines.join("\n")}`, 0, 0));
    this.addChild(new Spacer(1));
  }

  /** `label (scope) path` for a resource with known provenance, else the shortened path. */
  #withSource(path: string, infos: Map<string, SourceInfo>): string {
    let info = infos.get(path);
    for (let current = path; !info && current.includes("/");) {
      current = current.slice(0, current.lastIndexOf("/"));
      info = infos.get(current);
    }
    if (!info) return this.#display(path);
    const source = info.source ?? "local";
    const scope = info.scope ?? "project";
    let label: string;
    let scopeLabel: string | undefined;
    if (source === "local") {
      label = scope === "user" ? "user" : scope === "project" ? "project" : "path";
      scopeLabel = scope === "temporary" ? "temp" : undefined;
    } else if (source === "cli") {
      label = "path";
      scopeLabel = scope === "temporary" ? "temp" : undefined;
    } else {
      label = source;
      scopeLabel = scope === "user" ? "user" : scope === "project" ? "project" : "temp";
    }
    return `${scopeLabel ? `${label} (${scopeLabel})` : label} ${this.#shortPath(path, info)}`;
  }
}
