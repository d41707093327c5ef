/**
 * `/mcp` in the interactive mode, as pi 1.6.0 draws it (its dist/extensions/mcp/ui.js and the
 * manager of index.js): a framed list of the session's MCP servers, those needing the user first,
 * each with its state, exposure and scope; Enter opens a server's menu (Sign in, Tools, Reconnect,
 * Sign out) with its transport, config file, state and last error; the lists redraw while servers
 * connect; Exposure and Enable/Disable (also for this project alone) save to the server's
 * `mcp.json` and take effect at once. `/mcp login|logout|reconnect [server]` run one action directly.
 *
 * @module
 */
import { resolve } from "../../util/path.ts";
import { openBrowser } from "../../util/open_browser.ts";
import {
  Container,
  type Focusable,
  getKeybindings,
  Input,
  type Keybinding,
  type SelectItem,
  SelectList,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import type { ServerState, SessionMcp } from "../../extensions/builtin/mcp/session_mcp.ts";
import type { McpServerEntry } from "../../extensions/builtin/mcp/config.ts";
import { DynamicBorder } from "./dynamic_border.ts";
import { getSelectListTheme, keyHint } from "./extension_exports.ts";
import type { CommandHost } from "./command_host.ts";
import type { Theme } from "./theme.ts";

const MAX_VISIBLE_ITEMS = 12;
const USAGE = "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]";
const EXPOSURE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  codemode: "called from codemode scripts, which find them with searchTools()",
  deferred: "not declared until tool_search loads them, then called directly; no codemode needed",
  direct: "declared to the model like built-in tools",
};

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

function isEnabled(server: ServerState): boolean {
  return server.entry.config.enabled !== false;
}

function exposureOf(entry: McpServerEntry): string {
  return entry.config.exposure ?? "codemode";
}

/** Short state for lists; `withError` appends the first line of a failure (1.6.0's words). */
function describeState(server: ServerState, withError = true): string {
  if (!isEnabled(server)) return "disabled";
  const connection = server.connection;
  if (!connection) return "starting";
  switch (connection.state) {
    case "needs-auth":
      return "needs sign-in";
    case "failed":
      return withError ? `failed: ${firstLine(connection.error ?? "unknown error")}` : "failed";
    case "connected": {
      const count = connection.tools.length;
      return `connected · ${count} tool${count === 1 ? "" : "s"}${
        connection.hasResources ? " · resources" : ""
      }`;
    }
    case "connecting":
      return "connecting…";
    default:
      return connection.state;
  }
}

/** Servers that need the user come first. */
function attentionRank(server: ServerState): number {
  if (!isEnabled(server)) return 5;
  switch (server.connection?.state) {
    case "needs-auth":
      return 0;
    case "failed":
      return 1;
    case "disconnected":
      return 2;
    case "connected":
      return 4;
    default:
      return 3;
  }
}

function describeTransport(entry: McpServerEntry): string {
  const { config } = entry;
  return "url" in config ? config.url : [config.command, ...(config.args ?? [])].join(" ");
}

function keyMatches(data: string, binding: string): boolean {
  return getKeybindings().matches(data, binding as Keybinding);
}

interface Menu {
  title: string;
  details?: string;
  error?: string;
  items: SelectItem[];
  selected?: string;
  empty?: string;
  confirmLabel: string;
  cancelLabel: string;
}

interface InputHandler {
  handleInput(data: string): void;
}

/** The manager's frame: accent rules, a bold title, the body and a dim key line. */
function frame(theme: Theme, title: string, body: (Text | Spacer | SelectList | Input)[], footer?: string) {
  const container = new Container();
  container.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
  container.addChild(new Text(theme.fg("accent", theme.bold(title)), 1, 0));
  for (const child of body) container.addChild(child);
  if (footer) {
    container.addChild(new Spacer(1));
    container.addChild(new Text(theme.fg("dim", footer), 1, 0));
  }
  container.addChild(new DynamicBorder((text) => theme.fg("accent", text)));
  return container;
}

/** The view in the editor's place; its content is swapped as the user moves through menus. */
class McpManagerView extends Container implements Focusable {
  focused = false;
  #handler: InputHandler | undefined;

  constructor(private readonly app: CommandHost) {
    super();
    this.#set(frame(app.theme, "MCP servers", [new Text(app.theme.fg("muted", "Loading…"), 1, 1)]));
  }

  #set(content: Container, handler?: InputHandler): void {
    this.clear();
    this.addChild(content);
    this.#handler = handler;
    this.app.requestRender();
  }

  handleInput(data: string): void {
    this.#handler?.handleInput(data);
    this.app.requestRender();
  }

  /** Shows `build()`'s menu, rebuilt on every change; resolves with the chosen value (undefined: cancelled). */
  menu(build: () => Menu, subscribe?: (listener: () => void) => () => void): Promise<string | undefined> {
    const theme = this.app.theme;
    return new Promise((resolveChoice) => {
      let settled = false;
      const subscription: { off?: () => void } = {};
      let selected: string | undefined;
      const finish = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        subscription.off?.();
        resolveChoice(value);
      };
      const render = () => {
        const menu = build();
        const wanted = selected ?? menu.selected;
        const body: (Text | Spacer | SelectList)[] = [];
        if (menu.details) body.push(new Text(theme.fg("muted", menu.details), 1, 0));
        if (menu.error) body.push(new Text(theme.fg("error", menu.error), 1, 0));
        body.push(new Spacer(1));
        if (menu.items.length === 0) {
          body.push(new Text(theme.fg("muted", menu.empty ?? "Nothing to show."), 1, 0));
          this.#set(frame(theme, menu.title, body, keyHint("tui.select.cancel", menu.cancelLabel)), {
            handleInput: (data) => {
              if (keyMatches(data, "tui.select.cancel")) finish(undefined);
            },
          });
          return;
        }
        const list = new SelectList(
          menu.items,
          Math.min(menu.items.length, MAX_VISIBLE_ITEMS),
          getSelectListTheme(),
        );
        const index = menu.items.findIndex((item) => item.value === wanted);
        if (index !== -1) list.setSelectedIndex(index);
        selected = list.getSelectedItem()?.value;
        list.onSelectionChange = (item) => {
          selected = item.value;
        };
        list.onSelect = (item) => finish(item.value);
        list.onCancel = () => finish(undefined);
        body.push(list);
        const footer = `${keyHint("tui.select.confirm", menu.confirmLabel)} • ${
          keyHint("tui.select.cancel", menu.cancelLabel)
        }`;
        this.#set(frame(theme, menu.title, body, footer), list);
      };
      render();
      subscription.off = subscribe?.(() => {
        if (!settled) render();
      });
    });
  }

  /** A read-only status screen; Escape calls `onCancel` when given. */
  status(title: string, message: string, onCancel?: () => void): void {
    const theme = this.app.theme;
    const body = [new Spacer(1), new Text(theme.fg("muted", message), 1, 0)];
    if (!onCancel) {
      this.#set(frame(theme, title, body));
      return;
    }
    this.#set(frame(theme, title, body, keyHint("tui.select.cancel", "cancel")), {
      handleInput: (data) => {
        if (keyMatches(data, "tui.select.cancel")) onCancel();
      },
    });
  }

  /** The sign-in screen: the URL, and a field for a redirect URL pasted from another machine's browser. */
  redirectUrl(title: string, authorizationUrl: string, signal: AbortSignal): Promise<string | undefined> {
    const theme = this.app.theme;
    return new Promise((resolveUrl) => {
      let settled = false;
      const finish = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        resolveUrl(value);
      };
      const onAbort = () => finish(undefined);
      if (signal.aborted) return finish(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
      const input = new Input();
      input.focused = true;
      const body = [
        new Spacer(1),
        new Text(theme.fg("muted", "Approve access in your browser. If it did not open, visit:"), 1, 0),
        new Text(theme.fg("accent", authorizationUrl), 1, 0),
        new Spacer(1),
        new Text(
          theme.fg("muted", "If the browser runs on another machine, paste the URL it was redirected to:"),
          1,
          0,
        ),
        input,
      ];
      const footer = `${keyHint("tui.select.confirm", "submit")} • ${keyHint("tui.select.cancel", "cancel")}`;
      this.#set(frame(theme, title, body, footer), {
        handleInput: (data) => {
          if (keyMatches(data, "tui.select.confirm")) {
            const value = input.getValue().trim();
            if (value) finish(value);
            return;
          }
          if (keyMatches(data, "tui.select.cancel")) return finish(undefined);
          input.handleInput(data);
        },
      });
    });
  }
}

/** What the manager does for one session's MCP. */
class McpManager {
  constructor(private readonly app: CommandHost, private readonly mcp: SessionMcp | undefined) {}

  get #servers(): ServerState[] {
    return this.mcp?.servers ?? [];
  }

  #find(name: string): ServerState | undefined {
    return this.#servers.find((server) => server.entry.name === name);
  }

  #empty(): string {
    return `No MCP servers configured. Add them to ${
      resolve(this.mcp?.agentDir ?? "", "mcp.json")
    } or .pi/mcp.json.`;
  }

  #subscribe = (listener: () => void) => this.mcp?.subscribe(listener) ?? (() => {});

  #serversMenu = (): Menu => ({
    title: "MCP servers",
    error: (this.mcp?.configErrors ?? []).map((error) => `config: ${error}`).join("\n") || undefined,
    items: [...this.#servers]
      .sort((a, b) => attentionRank(a) - attentionRank(b) || a.entry.name.localeCompare(b.entry.name))
      .map((server) => ({
        value: server.entry.name,
        label: server.entry.name,
        description: `${describeState(server)} · ${exposureOf(server.entry)} · ${
          server.entry.override ? "global, project override" : server.entry.scope
        }`,
      })),
    empty: this.#empty(),
    confirmLabel: "manage",
    cancelLabel: "close",
  });

  #messages = new Map<string, string | undefined>();

  #serverMenu(name: string): Menu {
    const server = this.#find(name);
    if (!server) {
      return {
        title: name,
        items: [],
        empty: "This server is no longer configured.",
        confirmLabel: "",
        cancelLabel: "back",
      };
    }
    const { entry, connection } = server;
    const saved = entry.scope === "extension"
      ? "for this session"
      : entry.override
      ? "saved to the project mcp.json"
      : `saved to the ${entry.scope} mcp.json`;
    const inProject = entry.scope === "global" && !entry.override;
    const items: SelectItem[] = [];
    if (!isEnabled(server)) {
      items.push({ value: "enable", label: "Enable", description: saved });
      if (inProject) {
        items.push({
          value: "enable-project",
          label: "Enable in this project",
          description: "saved to the project mcp.json",
        });
      }
    } else {
      const state = connection?.state;
      if (state === "needs-auth") {
        items.push({ value: "signin", label: "Sign in", description: "opens the browser" });
      }
      if (state === "connected" && connection) {
        items.push({ value: "tools", label: "Tools", description: `${connection.tools.length} offered` });
      }
      if (state === "failed" || state === "disconnected" || state === "connected" || state === "needs-auth") {
        items.push({ value: "reconnect", label: "Reconnect" });
      }
      if (state === "connected" && connection?.oauthUrl) {
        items.push({ value: "signout", label: "Sign out", description: "deletes the stored credentials" });
      }
      items.push({ value: "exposure", label: "Exposure", description: exposureOf(entry) });
      items.push({ value: "disable", label: "Disable", description: saved });
      if (inProject) {
        items.push({
          value: "disable-project",
          label: "Disable in this project",
          description: "saved to the project mcp.json",
        });
      }
    }
    const details = [
      describeTransport(entry),
      `${entry.scope}: ${entry.source}`,
      ...(entry.override ? [`project override: ${entry.override}`] : []),
      `State: ${describeState(server, false)}`,
    ];
    const error = [
      this.#messages.get(name),
      connection?.state === "connected" ? undefined : connection?.error,
    ]
      .filter((line) => line !== undefined).join("\n");
    return {
      title: `MCP server ${name}`,
      details: details.join("\n"),
      ...(error ? { error } : {}),
      items,
      ...(items[0] ? { selected: items[0].value } : {}),
      confirmLabel: "select",
      cancelLabel: "back",
    };
  }

  async #showTools(view: McpManagerView, server: ServerState): Promise<void> {
    const exposure = exposureOf(server.entry);
    const { getMcpToolExposure } = await import("../../extensions/builtin/mcp/config.ts");
    const overridden = Object.keys(server.entry.config.toolExposure ?? {}).length > 0;
    await view.menu(() => ({
      title: `Tools of ${server.entry.name}`,
      details: `Exposure ${exposure}: ${
        exposure === "hidden" ? "unreachable" : EXPOSURE_DESCRIPTIONS[exposure]
      }${overridden ? "\nSome tools override it with toolExposure." : ""}`,
      items: (server.connection?.tools ?? []).map((tool) => {
        const toolExposure = getMcpToolExposure(server.entry.config, tool.name);
        const description = firstLine(tool.description ?? "");
        return {
          value: tool.name,
          label: tool.name,
          description: toolExposure === exposure ? description : `[${toolExposure}] ${description}`,
        };
      }),
      empty: "The server offers no tools.",
      confirmLabel: "back",
      cancelLabel: "back",
    }));
  }

  async #chooseExposure(view: McpManagerView, server: ServerState): Promise<string | undefined> {
    const current = exposureOf(server.entry);
    const choice = await view.menu(() => ({
      title: `Exposure of ${server.entry.name}`,
      details: server.entry.scope === "extension"
        ? `Applies to this session; the server is registered by ${server.entry.source}.`
        : `Saved to ${server.entry.override ?? server.entry.source}.`,
      items: Object.keys(EXPOSURE_DESCRIPTIONS).map((exposure) => ({
        value: exposure,
        label: `${exposure === current ? "✓ " : "  "}${exposure}`,
        description: EXPOSURE_DESCRIPTIONS[exposure],
      })),
      selected: current,
      confirmLabel: "save",
      cancelLabel: "back",
    }));
    if (!choice || choice === current || !this.mcp) return undefined;
    return await this.mcp.setExposure(server.entry.name, choice as "codemode" | "deferred" | "direct");
  }

  /** Signs in on the manager's sign-in screen; the error message, if any. */
  async signInWithView(view: McpManagerView, server: ServerState): Promise<string | undefined> {
    const title = `Sign in to ${server.entry.name}`;
    const cancel = new AbortController();
    const status = (message: string) => view.status(title, message, () => cancel.abort());
    let authorizationUrl = "";
    status("Contacting the authorization server…");
    return await this.#signIn(server, {
      showAuthorizationUrl: (url) => {
        authorizationUrl = url.href;
        openBrowser(url.href);
      },
      promptForRedirectUrl: async (signal) => {
        const value = await view.redirectUrl(title, authorizationUrl, signal);
        status("Connecting…");
        return value;
      },
    }, cancel.signal);
  }

  async #signIn(
    server: ServerState,
    prompt: import("../../extensions/builtin/mcp/oauth_sign_in.ts").McpSignInPrompt,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const connection = server.connection;
    const url = connection?.oauthUrl;
    if (!connection || !url || !this.mcp) return "This server does not use OAuth.";
    const { signInMcpServer, McpSignInCancelledError } = await import(
      "../../extensions/builtin/mcp/oauth_sign_in.ts"
    );
    const { McpOAuthCredentialStore } = await import("../../extensions/builtin/mcp/oauth_store.ts");
    try {
      await signInMcpServer({
        serverUrl: url,
        store: new McpOAuthCredentialStore(this.mcp.agentDir).forServer(server.entry.name, url),
        settings: connection.oauthSettings(),
        ...(connection.challenge ? { challenge: connection.challenge } : {}),
        prompt,
        signal,
      });
    } catch (error) {
      if (error instanceof McpSignInCancelledError) return "Sign-in cancelled.";
      return `Sign-in to MCP server "${server.entry.name}" failed: ${
        error instanceof Error ? error.message : String(error)
      }`;
    }
    connection.challenge = undefined;
    try {
      await connection.reconnect();
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }

  async signOut(server: ServerState): Promise<boolean> {
    const connection = server.connection;
    const url = connection?.oauthUrl;
    if (!connection || !url || !this.mcp) return false;
    const { McpOAuthCredentialStore } = await import("../../extensions/builtin/mcp/oauth_store.ts");
    const removed = new McpOAuthCredentialStore(this.mcp.agentDir).remove(server.entry.name, url);
    await connection.signOut();
    return removed;
  }

  #reconnect(server: ServerState): void {
    const name = server.entry.name;
    this.#messages.set(name, undefined);
    // Failures show as the connection's state and error.
    void server.connection?.reconnect().catch(() => undefined);
  }

  async #runAction(view: McpManagerView, server: ServerState, action: string): Promise<void> {
    let message: string | undefined;
    switch (action) {
      case "signin":
        message = await this.signInWithView(view, server);
        break;
      case "reconnect":
        this.#reconnect(server);
        return;
      case "signout":
        await this.signOut(server);
        break;
      case "tools":
        await this.#showTools(view, server);
        break;
      case "exposure":
        message = await this.#chooseExposure(view, server);
        break;
      case "enable":
      case "disable":
      case "enable-project":
      case "disable-project":
        // Connection failures show as the server's state; only a file that could not be saved is said here.
        message = await this.mcp?.setEnabled(
          server.entry.name,
          action.startsWith("enable"),
          action.endsWith("-project"),
        );
        break;
    }
    this.#messages.set(server.entry.name, message);
  }

  /** The manager's loop: the server list, then a server's menu, until closed. */
  async manage(view: McpManagerView): Promise<void> {
    for (;;) {
      const name = await view.menu(this.#serversMenu, this.#subscribe);
      if (!name) return;
      for (;;) {
        const action = await view.menu(() => this.#serverMenu(name), this.#subscribe);
        const server = this.#find(name);
        if (!action || !server) break;
        await this.#runAction(view, server, action);
      }
    }
  }

  /** `/mcp login|logout|reconnect [name]`: picks the server when the name is left out. */
  pick(
    name: string | undefined,
    eligible: (server: ServerState) => boolean,
    preferred: (server: ServerState) => boolean,
    none: string,
  ): ServerState | string {
    if (name) {
      const server = this.#find(name);
      if (!server) return `No MCP server named "${name}".`;
      return eligible(server) ? server : none;
    }
    const candidates = this.#servers.filter(eligible);
    if (candidates.length === 0) return none;
    const first = candidates.filter(preferred);
    if (candidates.length === 1) return candidates[0];
    if (first.length === 1) return first[0];
    return `Name the server: ${candidates.map((server) => server.entry.name).join(", ")}.`;
  }
}

/** Runs `/mcp [args]`. */
export async function runMcpCommand(app: CommandHost, args: string): Promise<void> {
  // Loaded only when this session started MCP (an mcp.json exists), so this import is cheap then.
  const { sessionMcpOf } = await import("../../extensions/builtin/mcp/session_mcp.ts");
  const mcp = sessionMcpOf(app.session);
  const manager = new McpManager(app, mcp);
  const [action, name, ...extra] = args.trim().split(/\s+/).filter(Boolean);
  const notice = (level: "info" | "warning" | "error", text: string) => {
    app.chat.addNotice(level === "info" ? "status" : level, text);
    app.requestRender();
  };
  const showView = async (run: (view: McpManagerView) => Promise<void>) => {
    const view = new McpManagerView(app);
    const close = app.showSelector(view);
    try {
      await run(view);
    } finally {
      close();
    }
  };
  if (action === undefined) return await showView((view) => manager.manage(view));
  if (extra.length > 0) return notice("warning", USAGE);
  await mcp?.settled();
  const oauthNone = "No enabled MCP server uses OAuth. Only HTTP servers without an Authorization header do.";
  const usesOAuth = (server: ServerState) => server.connection?.oauthUrl !== undefined;
  const needsAuth = (server: ServerState) => server.connection?.state === "needs-auth";
  switch (action) {
    case "login": {
      const server = manager.pick(name, usesOAuth, needsAuth, oauthNone);
      if (typeof server === "string") return notice(name ? "error" : "info", server);
      let failure: string | undefined;
      await showView(async (view) => {
        failure = await manager.signInWithView(view, server);
      });
      if (failure) return notice(failure === "Sign-in cancelled." ? "info" : "error", failure);
      return notice(
        "info",
        `Signed in to MCP server "${server.entry.name}" (${server.connection?.tools.length ?? 0} tools).`,
      );
    }
    case "logout": {
      const server = manager.pick(name, usesOAuth, needsAuth, oauthNone);
      if (typeof server === "string") return notice(name ? "error" : "info", server);
      const removed = await manager.signOut(server);
      return notice(
        "info",
        removed
          ? `Signed out of MCP server "${server.entry.name}".`
          : `No stored credentials for MCP server "${server.entry.name}".`,
      );
    }
    case "reconnect": {
      const server = manager.pick(
        name,
        (candidate) => candidate.connection !== undefined,
        (candidate) =>
          candidate.connection?.state === "failed" || candidate.connection?.state === "disconnected",
        "No enabled MCP server to reconnect.",
      );
      if (typeof server === "string") return notice(name ? "error" : "info", server);
      try {
        await server.connection?.reconnect();
        return notice("info", `Reconnected to MCP server "${server.entry.name}" (${describeState(server)}).`);
      } catch (error) {
        return notice("error", error instanceof Error ? error.message : String(error));
      }
    }
    default:
      return notice("warning", USAGE);
  }
}
