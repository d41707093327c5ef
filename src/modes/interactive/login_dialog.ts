/**
 * The login dialog pi 1.6.0 shows in place of the editor while `/login` runs: `Login to <provider>`
 * between two borders, then what the flow sends — the sign-in URL (with its click hint), the device
 * code (`Enter code: …`), progress lines, a pasted-code or text prompt. Escape cancels the login
 * (its signal aborts and a pending prompt rejects with "Login cancelled").
 *
 * @module
 */
import { Container, getKeybindings, hyperlink, Input, Spacer, Text, TruncatedText } from "../../tui/mod.ts";
import type { TUI } from "../../tui/mod.ts";
import type { Keybinding } from "../../tui/keybindings.ts";
import { toBase64 } from "../../util/bytes.ts";
import { trustedHttpUrl } from "../../config/oauth/trusted_url.ts";
import { replaceControlCharacters } from "../../tui/utils_ansi.ts";
import { keyText, matchesAction } from "./app_keys.ts";
import { openBrowser } from "../../util/open_browser.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** The message a cancelled login fails with (1.6.0's; callers compare it to go back). */
export const LOGIN_CANCELLED = "Login cancelled";

/** What a device-code flow sends (the fields the dialog shows). */
export interface DeviceCodeDisplay {
  userCode: string;
  verificationUri: string;
  /** Enter opens the page (default true). */
  openBrowserOnConfirm?: boolean;
  /** Enter copies the code (default true). */
  copyCodeOnConfirm?: boolean;
}

/** The Ctrl+click hint (Cmd on macOS) as 1.6.0 words it. */
function clickHint(): string {
  return Deno.build.os === "darwin" ? "Cmd+click to open" : "Ctrl+click to open";
}

/** The dialog; `signal` aborts when the user cancels. */
export class LoginDialog extends Container {
  readonly #content = new Container();
  readonly #input = new Input();
  readonly #abort = new AbortController();
  #resolve?: (value: string) => void;
  #reject?: (error: Error) => void;
  #focused = false;
  /** Copies the shown sign-in URL (set while one is shown). */
  #copyUrl?: () => void;
  /** What Enter does under a device code (once): open the page, copy the code. */
  #deviceAction?: () => void;
  #deviceHint?: Container;

  /** A dialog titled `Login to <providerName>`; `onCancel` runs after Escape. */
  constructor(
    private readonly tui: TUI,
    private readonly theme: Theme,
    providerName: string,
    private readonly onCancel: () => void = () => {},
  ) {
    super();
    this.addChild(new BorderLine(theme));
    this.addChild(new Text(theme.fg("accent", theme.bold(`Login to ${providerName}`)), 1, 0));
    this.addChild(this.#content);
    this.#input.onSubmit = () => {
      const resolve = this.#resolve;
      if (!resolve) return;
      const value = this.#input.getValue();
      // The answered field becomes plain text, as in 1.6.0.
      this.#content.children = this.#content.children.map((child) =>
        child === this.#input ? new Text(`> ${value}`, 0, 0) : child
      );
      this.#resolve = this.#reject = undefined;
      resolve(value);
    };
    this.#input.onEscape = () => this.cancel();
    this.addChild(new BorderLine(theme));
  }

  /** Aborts when the user cancels. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Focus goes to the input field (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#input.focused = value;
  }

  /** Cancels the login: aborts, rejects a pending prompt. */
  cancel(): void {
    this.#clearDeviceAction();
    this.#abort.abort(new Error(LOGIN_CANCELLED));
    const reject = this.#reject;
    this.#resolve = this.#reject = undefined;
    reject?.(new Error(LOGIN_CANCELLED));
    this.onCancel();
  }

  #hint(binding: Keybinding, description: string): string {
    const key = getKeybindings().getKeys(binding).join("/");
    return this.theme.fg("dim", key) + this.theme.fg("muted", ` ${description}`);
  }

  /** The sign-in URL (a terminal link with the click hint) and optional instructions. */
  showAuth(url: string, instructions?: string): void {
    this.#clearDeviceAction();
    const { theme } = this;
    this.#content.clear();
    this.#content.addChild(new Spacer(1));
    const target = trustedHttpUrl(url);
    const shown = target ?? replaceControlCharacters(url);
    this.#content.addChild(new Text(theme.fg("accent", target ? hyperlink(shown, target) : shown), 1, 0));
    const hintText = target ? hyperlink(clickHint(), target) : clickHint();
    const hint = new Text("", 1, 0);
    const setHint = (suffix: string) =>
      hint.setText(`${theme.fg("dim", hintText)} ${theme.fg("dim", "•")} ${suffix}`);
    setHint(this.theme.fg("dim", keyText("app.message.copy")) + this.theme.fg("muted", " to copy"));
    this.#content.addChild(hint);
    // A long URL wraps and often cannot be selected as a whole (ssh, tmux): the copy key puts it on the
    // clipboard with OSC 52, as /copy does.
    this.#copyUrl = () => {
      this.tui.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(shown))}\x07`);
      setHint(theme.fg("success", "Copied URL to clipboard"));
      this.tui.requestRender();
    };
    if (instructions) {
      this.#content.addChild(new Spacer(1));
      this.#content.addChild(new Text(theme.fg("warning", instructions), 1, 0));
    }
    if (target) openBrowser(target);
    this.tui.requestRender();
  }

  /** The verification URL and the code to enter there. */
  showDeviceCode(info: DeviceCodeDisplay): void {
    const { theme } = this;
    this.#copyUrl = undefined;
    this.#clearDeviceAction();
    this.#content.clear();
    this.#content.addChild(new Spacer(1));
    const target = trustedHttpUrl(info.verificationUri);
    const shown = target ?? replaceControlCharacters(info.verificationUri);
    this.#content.addChild(new Text(theme.fg("accent", target ? hyperlink(shown, target) : shown), 1, 0));
    this.#content.addChild(
      new Text(theme.fg("dim", target ? hyperlink(clickHint(), target) : clickHint()), 1, 0),
    );
    this.#content.addChild(new Spacer(1));
    this.#content.addChild(new Text(theme.fg("warning", `Enter code: ${info.userCode}`), 1, 0));
    const openBrowserOnConfirm = info.openBrowserOnConfirm ?? true;
    const copyCode = info.copyCodeOnConfirm ?? true;
    if (!this.signal.aborted && (openBrowserOnConfirm || copyCode)) {
      const action = openBrowserOnConfirm
        ? copyCode ? "to open browser and copy code" : "to open browser"
        : "to copy code";
      // One row, reused for what Enter did (as 1.6.0 does).
      const hint = new Container();
      hint.addChild(new TruncatedText(`(${this.#hint("tui.select.confirm", action)})`, 1, 0));
      this.#content.addChild(hint);
      this.#deviceHint = hint;
      this.#deviceAction = () => {
        if (copyCode) {
          this.tui.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(info.userCode))}\x07`);
        }
        if (openBrowserOnConfirm && target) openBrowser(target);
        hint.clear();
        hint.addChild(
          new TruncatedText(
            theme.fg("dim", copyCode ? "Code copied to clipboard" : "Browser open requested"),
            1,
            0,
          ),
        );
        this.tui.requestRender();
      };
    }
    this.tui.requestRender();
  }

  /** Drops the device code's Enter action and its hint row (a later step replaces them). */
  #clearDeviceAction(): void {
    if (this.#deviceHint) this.#content.removeChild(this.#deviceHint);
    this.#deviceHint = this.#deviceAction = undefined;
  }

  /** A waiting line with the cancel hint (polling flows). */
  showWaiting(message: string): void {
    this.#content.addChild(new Spacer(1));
    this.#content.addChild(new Text(this.theme.fg("dim", message), 1, 0));
    this.#content.addChild(new Text(`(${this.#hint("tui.select.cancel", "to cancel")})`, 1, 0));
    this.tui.requestRender();
  }

  /** A progress line. */
  showProgress(message: string): void {
    this.#content.addChild(new Text(this.theme.fg("dim", message), 1, 0));
    this.tui.requestRender();
  }

  /** Information (with optional links) before another step. */
  showInfo(message: string, links: readonly { url: string; label?: string }[] = []): void {
    this.#content.addChild(new Spacer(1));
    this.#content.addChild(new Text(this.theme.fg("text", message), 1, 0));
    for (const link of links) {
      const url = trustedHttpUrl(link.url) ?? replaceControlCharacters(link.url);
      this.#content.addChild(
        new Text(this.theme.fg("accent", link.label ? `${link.label}: ${url}` : url), 1, 0),
      );
    }
    this.tui.requestRender();
  }

  /** The pasted-code field under the URL (callback flows); resolves with what was entered. */
  showManualInput(message: string): Promise<string> {
    this.#clearDeviceAction();
    this.#content.addChild(new Spacer(1));
    this.#content.addChild(new Text(this.theme.fg("dim", message), 1, 0));
    this.#content.addChild(this.#input);
    this.#content.addChild(new Text(`(${this.#hint("tui.select.cancel", "to cancel")})`, 1, 0));
    return this.#ask();
  }

  /** A question with an input field (API key, account details); resolves with the answer. */
  showPrompt(message: string, placeholder?: string): Promise<string> {
    this.#clearDeviceAction();
    const { theme } = this;
    this.#content.addChild(new Spacer(1));
    this.#content.addChild(new Text(theme.fg("text", message), 1, 0));
    if (placeholder) this.#content.addChild(new Text(theme.fg("dim", `e.g., ${placeholder}`), 1, 0));
    this.#content.addChild(this.#input);
    this.#content.addChild(
      new TruncatedText(
        `(${this.#hint("tui.select.cancel", "to cancel,")} ${this.#hint("tui.select.confirm", "to submit")})`,
        1,
        0,
      ),
    );
    return this.#ask();
  }

  #ask(): Promise<string> {
    this.#input.setValue("");
    this.tui.requestRender();
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Escape cancels; other keys go to the input field. */
  handleInput(data: string): void {
    if (getKeybindings().matches(data, "tui.select.cancel")) {
      this.cancel();
      return;
    }
    if (this.#deviceAction && !this.#resolve && getKeybindings().matches(data, "tui.select.confirm")) {
      const action = this.#deviceAction;
      this.#deviceAction = undefined;
      action();
      return;
    }
    if (this.#copyUrl && matchesAction(data, "app.message.copy")) {
      this.#copyUrl();
      return;
    }
    this.#input.handleInput(data);
  }
}
