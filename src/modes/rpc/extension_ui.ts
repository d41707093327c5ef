/**
 * The extension UI over RPC: dialogs become `extension_ui_request` lines answered by
 * `extension_ui_response` lines with the same id; display calls are fire-and-forget requests.
 * A dialog resolves to its default (undefined, or false for confirm) on timeout, on its abort
 * signal, on a `cancelled` answer, or when the client goes away — it never hangs the agent.
 *
 * @module
 */
import type { RpcExtensionUIRequest, RpcExtensionUIResponse } from "./rpc_types.ts";

/** Options of a dialog: `timeout` in ms, `signal` to withdraw it. */
export interface RpcDialogOptions {
  /** Milliseconds before the dialog gives up. */
  timeout?: number;
  /** Aborts the dialog. */
  signal?: AbortSignal;
}

/** Request fields without the envelope. */
type RequestBody = RpcExtensionUIRequest extends infer R ? R extends unknown ? Omit<R, "type" | "id"> : never
  : never;

interface PendingDialog {
  answer(response: RpcExtensionUIResponse | undefined): void;
}

/** The extension UI context of RPC mode. */
export class RpcExtensionUI {
  readonly #write: (record: RpcExtensionUIRequest) => void;
  readonly #pending = new Map<string, PendingDialog>();
  readonly #newId: () => string;

  /** `write` emits one request line; `newId` makes request ids (random UUIDs by default). */
  constructor(
    write: (record: RpcExtensionUIRequest) => void,
    newId: () => string = () => crypto.randomUUID(),
  ) {
    this.#write = write;
    this.#newId = newId;
  }

  /** RPC has a UI: a client that can answer. */
  readonly hasUI = true;

  /** Number of dialogs waiting for an answer. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Routes an `extension_ui_response`; answers for unknown ids are ignored. Returns whether one matched. */
  handleResponse(response: RpcExtensionUIResponse): boolean {
    const pending = this.#pending.get(response.id);
    if (!pending) return false;
    pending.answer(response);
    return true;
  }

  /** Resolves every open dialog with its default (the client is gone). */
  cancelAll(): void {
    for (const pending of [...this.#pending.values()]) pending.answer(undefined);
  }

  /** Asks the client to choose one of `options`. */
  select(title: string, options: string[], opts?: RpcDialogOptions): Promise<string | undefined> {
    return this.#dialog(
      opts,
      undefined,
      { method: "select", title, options, timeout: opts?.timeout },
      (r) => ("value" in r ? r.value : undefined),
    );
  }

  /** Asks the client a yes/no question. */
  confirm(title: string, message: string, opts?: RpcDialogOptions): Promise<boolean> {
    return this.#dialog(
      opts,
      false,
      { method: "confirm", title, message, timeout: opts?.timeout },
      (r) => ("confirmed" in r ? r.confirmed : false),
    );
  }

  /** Asks the client for a line of text. */
  input(title: string, placeholder?: string, opts?: RpcDialogOptions): Promise<string | undefined> {
    return this.#dialog(
      opts,
      undefined,
      { method: "input", title, placeholder, timeout: opts?.timeout },
      (r) => ("value" in r ? r.value : undefined),
    );
  }

  /** Asks the client to edit a text; the request carries no timeout (the reference's shape). */
  editor(title: string, prefill?: string, opts?: { signal?: AbortSignal }): Promise<string | undefined> {
    return this.#dialog(
      { signal: opts?.signal },
      undefined,
      { method: "editor", title, prefill },
      (r) => ("value" in r ? r.value : undefined),
    );
  }

  /** Shows a notification. */
  notify(message: string, notifyType?: "info" | "warning" | "error"): void {
    this.#send({ method: "notify", message, notifyType });
  }

  /** Sets (or clears, with undefined) a status line entry. */
  setStatus(statusKey: string, statusText: string | undefined): void {
    this.#send({ method: "setStatus", statusKey, statusText });
  }

  /** Sets a widget; only string lines travel over RPC (component factories are dropped). */
  setWidget(
    widgetKey: string,
    content: string[] | undefined | ((...args: never[]) => unknown),
    options?: { placement?: "aboveEditor" | "belowEditor" },
  ): void {
    if (content !== undefined && !Array.isArray(content)) return;
    this.#send({ method: "setWidget", widgetKey, widgetLines: content, widgetPlacement: options?.placement });
  }

  /** Sets the terminal title on the client. */
  setTitle(title: string): void {
    this.#send({ method: "setTitle", title });
  }

  /** Replaces the client's editor text. */
  setEditorText(text: string): void {
    this.#send({ method: "set_editor_text", text });
  }

  /** Pasting has no RPC form; it sets the editor text. */
  pasteToEditor(text: string): void {
    this.setEditorText(text);
  }

  /** The editor lives on the client; a synchronous read cannot ask it. */
  getEditorText(): string {
    return "";
  }

  /** Custom components need a terminal. */
  custom(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  /** No themes over RPC. */
  getAllThemes(): never[] {
    return [];
  }

  /** No themes over RPC. */
  getTheme(_name: string): undefined {
    return undefined;
  }

  /** Theme switching needs a terminal. */
  setTheme(_theme: unknown): { success: false; error: string } {
    return { success: false, error: "Theme switching not supported in RPC mode" };
  }

  /** Tool output is never collapsed over RPC. */
  getToolsExpanded(): boolean {
    return false;
  }

  /** Terminal-only features: accepted and ignored. */
  setToolsExpanded(_expanded: boolean): void {}
  /** Terminal-only. */
  setWorkingMessage(_message?: string): void {}
  /** Terminal-only. */
  setWorkingVisible(_visible: boolean): void {}
  /** Terminal-only. */
  setHiddenThinkingLabel(_label?: string): void {}
  /** Terminal-only (1.6.0 ignores it in RPC mode too). */
  setWorkingIndicator(_options?: unknown): void {}
  /** Terminal-only. */
  setFooter(_factory: unknown): void {}
  /** Terminal-only. */
  setHeader(_factory: unknown): void {}
  /** Terminal-only; returns the unsubscribe no-op. */
  onTerminalInput(_handler: unknown): () => void {
    return () => {};
  }
  /** Terminal-only: completions are the client's (1.6.0 ignores it in RPC mode too). */
  addAutocompleteProvider(_factory: unknown): void {}
  /** Terminal-only: the client draws its own editor (1.6.0 ignores it in RPC mode too). */
  setEditorComponent(_factory: unknown): void {}
  /** Terminal-only: never an extension's editor here. */
  getEditorComponent(): undefined {
    return undefined;
  }

  #send(body: RequestBody): void {
    this.#write({ type: "extension_ui_request", id: this.#newId(), ...body } as RpcExtensionUIRequest);
  }

  #dialog<T>(
    opts: RpcDialogOptions | undefined,
    fallback: T,
    body: RequestBody,
    parse: (response: RpcExtensionUIResponse) => T,
  ): Promise<T> {
    if (opts?.signal?.aborted) return Promise.resolve(fallback);
    const id = this.#newId();
    return new Promise<T>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => finish(undefined);
      const finish = (response: RpcExtensionUIResponse | undefined) => {
        if (timer !== undefined) clearTimeout(timer);
        opts?.signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
        if (!response || ("cancelled" in response && response.cancelled)) resolve(fallback);
        else resolve(parse(response));
      };
      opts?.signal?.addEventListener("abort", onAbort, { once: true });
      if (opts?.timeout) timer = setTimeout(() => finish(undefined), opts.timeout);
      this.#pending.set(id, { answer: finish });
      this.#write({ type: "extension_ui_request", id, ...body } as RpcExtensionUIRequest);
    });
  }
}
