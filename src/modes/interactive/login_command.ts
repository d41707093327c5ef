/**
 * `/login` as pi 1.6.0 has it. Without an argument: "Select authentication method:" (an account, an
 * API key, or Radius directly), then the provider list of that kind. `/login <provider>` (id or
 * name) goes straight to that provider's login, or asks which kind when it has both. The login runs
 * in a dialog in place of the editor (URL, device code, progress, pasted code, API key field), goes
 * through `ModelRuntime.login` (auth.json written, models reloaded), and ends with
 * `Logged in to <provider>. Credentials saved to <auth.json>` (or `Saved API key for …`). Escape
 * goes back to the selector the login was started from; a failure says
 * `Failed to login to <provider>: …`.
 *
 * @module
 */
import type { Model } from "../../ai/types.ts";
import type { AuthEvent, AuthPrompt } from "../../config/oauth/auth_interaction.ts";
import { CredentialSynchronizationError } from "../../config/model_runtime.ts";
import { defaultModelPerProvider } from "../../config/model_resolver.ts";
import { getAgentDir, getAuthPath } from "../../config/paths.ts";
import { readEnv } from "../../util/env.ts";
import type { CommandHost } from "./command_host.ts";
import { ExtensionSelector } from "./extension_dialogs.ts";
import { loginOptions } from "./login_options.ts";
import { LOGIN_CANCELLED, LoginDialog } from "./login_dialog.ts";
import { type LoginOption, LoginProviderSelector, loginStatusText } from "./login_provider_selector.ts";

const ACCOUNT_LABEL = "Sign in with an account";
/** 1.6.0's own wording of some providers' account login, offered when that provider is asked for. */
const LOGIN_LABELS: Readonly<Record<string, string>> = {
  "kimi-coding": "Sign in with Kimi Code",
  meta: "Sign in with Meta",
  openai: "Sign in with ChatGPT",
  openrouter: "Sign in with OpenRouter",
  xai: "Sign in with SuperGrok or X Premium",
};
const API_KEY_LABEL = "Sign in with an API key";

/** `/login [provider]`. */
export async function handleLoginCommand(app: CommandHost, providerRef?: string): Promise<void> {
  if (!providerRef) return showAuthTypeSelector(app);
  const wanted = providerRef.trim().toLowerCase();
  const matches = loginOptions(app).filter((o) =>
    o.id.toLowerCase() === wanted || o.name.toLowerCase() === wanted
  );
  if (matches.length === 1) return await startLogin(app, matches[0]);
  if (matches.length > 1 && new Set(matches.map((o) => o.id)).size === 1) {
    return showAuthTypeSelector(app, matches);
  }
  showProviderSelector(app, undefined, providerRef);
}

/** "Select authentication method:" — for all providers, or for the options of one provider. */
function showAuthTypeSelector(app: CommandHost, providerOptions?: LoginOption[]): void {
  const radius = providerOptions ? undefined : loginOptions(app, "oauth").find((o) => o.id === "radius");
  const radiusLabel = radius ? `Sign in with ${radius.name}${loginStatusText(app.theme, radius)}` : undefined;
  const kinds = providerOptions
    ? new Set(providerOptions.map((o) => o.authType))
    : new Set(["oauth", "api_key"]);
  const oauthId = providerOptions?.find((o) => o.authType === "oauth")?.id;
  const accountLabel = (oauthId && LOGIN_LABELS[oauthId]) || ACCOUNT_LABEL;
  const labels: string[] = [];
  if (kinds.has("oauth")) labels.push(accountLabel);
  if (kinds.has("api_key")) labels.push(API_KEY_LABEL);
  if (radiusLabel) labels.push(radiusLabel);
  if (providerOptions && labels.length === 1) {
    void startLogin(app, providerOptions[0]);
    return;
  }
  const title = providerOptions?.[0]
    ? `Select authentication method for ${providerOptions[0].name}:`
    : "Select authentication method:";
  const selector = new ExtensionSelector(
    app.theme,
    title,
    labels,
    (label) => {
      close();
      if (radius && label === radiusLabel) {
        void startLogin(app, radius, () => showAuthTypeSelector(app));
        return;
      }
      const authType = label === accountLabel ? "oauth" : "api_key";
      if (providerOptions) {
        const option = providerOptions.find((o) => o.authType === authType);
        if (option) void startLogin(app, option, () => showAuthTypeSelector(app, providerOptions));
        return;
      }
      showProviderSelector(app, authType);
    },
    () => {
      close();
      app.requestRender();
    },
  );
  const close = app.showSelector(selector);
}

/** "Select provider to configure:" of one kind (or both); Escape goes back to the kind. */
function showProviderSelector(
  app: CommandHost,
  authType?: "oauth" | "api_key",
  initialSearch?: string,
): void {
  const options = loginOptions(app, authType);
  const selector = new LoginProviderSelector(
    app.theme,
    options,
    (option) => {
      close();
      void startLogin(app, option, () => showProviderSelector(app, authType, initialSearch));
    },
    () => {
      close();
      if (authType) showAuthTypeSelector(app);
      else app.requestRender();
    },
    initialSearch,
  );
  const close = app.showSelector(selector);
}

/** Runs one login in the dialog; `onBack` reopens the selector it came from when cancelled. */
async function startLogin(app: CommandHost, option: LoginOption, onBack?: () => void): Promise<void> {
  const runtime = app.session.modelRuntime;
  const previousModel = app.session.model;
  const dialog = new LoginDialog(app.ui, app.theme, option.name);
  const close = app.showSelector(dialog);
  const interaction = {
    signal: dialog.signal,
    prompt: (prompt: AuthPrompt) => answer(app, dialog, prompt),
    notify: (event: AuthEvent) => show(dialog, event),
  };
  const isKey = option.authType === "api_key";
  // llama.cpp's own flow asks for the router's URL as well (its built-in extension).
  const llama = option.id === "llama.cpp"
    ? await import("../../extensions/builtin/llama_cpp/login.ts")
    : undefined;
  try {
    await runtime.login(option.id, option.authType, interaction, {
      getDeviceId: () => app.session.settingsManager.getOrCreateDeviceId(),
      ...(llama ? { credential: (asked) => llama.llamaLoginCredential(asked, readEnv) } : {}),
    });
    close();
    await finishLogin(app, option, previousModel);
  } catch (error) {
    close();
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof CredentialSynchronizationError) {
      app.chat.addNotice(
        "error",
        `${
          isKey ? "Saved API key for" : "Logged in to"
        } ${option.name}, but local model state could not be synchronized: ${message}`,
      );
    } else if (message === LOGIN_CANCELLED || dialog.signal.aborted) {
      onBack?.();
    } else {
      app.chat.addNotice(
        "error",
        isKey
          ? `Failed to save API key for ${option.name}: ${message}`
          : `Failed to login to ${option.name}: ${message}`,
      );
    }
  } finally {
    app.requestRender();
  }
}

/** The dialog's answer to one prompt; a prompt withdrawn by its signal fails as cancelled. */
function answer(app: CommandHost, dialog: LoginDialog, prompt: AuthPrompt): Promise<string> {
  let response: Promise<string>;
  if (prompt.type === "select") response = choose(app, dialog, prompt.message, prompt.options);
  else if (prompt.type === "manual_code") response = dialog.showManualInput(prompt.message);
  else response = dialog.showPrompt(prompt.message, prompt.placeholder);
  const signal = prompt.signal;
  if (!signal) return response;
  if (signal.aborted) return Promise.reject(new Error(LOGIN_CANCELLED));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error(LOGIN_CANCELLED));
    signal.addEventListener("abort", onAbort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A choice the flow asks for (e.g. an account's region), in a selector over the dialog. */
function choose(
  app: CommandHost,
  dialog: LoginDialog,
  message: string,
  options: readonly { id: string; label: string }[],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const restore = () => app.showSelector(dialog);
    const selector = new ExtensionSelector(
      app.theme,
      message,
      options.map((o) => o.label),
      (label) => {
        restore();
        const id = options.find((o) => o.label === label)?.id;
        if (id) resolve(id);
        else reject(new Error(LOGIN_CANCELLED));
      },
      () => {
        restore();
        reject(new Error(LOGIN_CANCELLED));
      },
    );
    app.showSelector(selector);
  });
}

/** Shows one event of the flow in the dialog. */
function show(dialog: LoginDialog, event: AuthEvent): void {
  if (event.type === "auth_url") dialog.showAuth(event.url, event.instructions);
  else if (event.type === "device_code") {
    dialog.showDeviceCode(event);
    dialog.showWaiting("Waiting for authentication...");
  } else if (event.type === "info") dialog.showInfo(event.message, event.links);
  else dialog.showProgress(event.message);
}

/**
 * The success line; with no model selected yet, the provider's default model is selected (1.6.0's
 * completeProviderAuthentication). When the default is not among the provider's models yet (a
 * Copilot account's model list, a catalog only the refresh brings), 1.6.0 says "Refreshing model
 * catalog…" and selects after the refresh, unless a model or session was chosen meanwhile.
 */
async function finishLogin(
  app: CommandHost,
  option: LoginOption,
  previousModel: Model | undefined,
): Promise<void> {
  const action = option.authType === "oauth"
    ? `Logged in to ${option.name}`
    : `Saved API key for ${option.name}`;
  const saved = `Credentials saved to ${getAuthPath()}`;
  const llama = option.id === "llama.cpp"
    ? await import("../../extensions/builtin/llama_cpp/login.ts")
    : undefined;
  const session = app.session;
  const defaultId = defaultModelPerProvider[option.id];
  const deferred = !previousModel && defaultId !== undefined && !llama &&
    !session.modelRuntime.getAvailableSnapshot().some((m) => m.provider === option.id && m.id === defaultId);
  const finish = async () => {
    let selected: Model | undefined;
    let problem: string | undefined;
    if (!previousModel) {
      const models = app.session.modelRuntime.getAvailableSnapshot().filter((m) => m.provider === option.id);
      if (llama) {
        problem = llama.llamaPostLoginGuidance(action, models.length);
      } else if (!defaultId) {
        problem =
          `${action}, but no default model is configured for provider "${option.id}". Use /model to select a model.`;
      } else if (models.length === 0) {
        problem = `${action}, but no models are available for that provider. Use /model to select a model.`;
      } else {
        selected = models.find((m) => m.id === defaultId) ?? (option.id === "radius" ? models[0] : undefined);
        if (!selected) {
          problem =
            `${action}, but its default model "${defaultId}" is not available. Use /model to select a model.`;
        } else {
          try {
            await app.session.setModel(selected, { persist: true });
          } catch (error) {
            selected = undefined;
            const message = error instanceof Error ? error.message : String(error);
            problem =
              `${action}, but selecting its default model failed: ${message}. Use /model to select a model.`;
          }
        }
      }
    }
    app.updateEditorBorder();
    app.chat.addNotice(
      "status",
      selected ? `${action}. Selected ${selected.id}. ${saved}` : `${action}. ${saved}`,
    );
    if (problem) app.chat.addNotice("error", problem);
  };
  if (deferred) app.chat.addNotice("status", `${action}. ${saved}. Refreshing model catalog…`);
  else await finish();
  // In the background, as 1.6.0: the provider's newest catalog reaches /model (llama.cpp's from its router).
  if (llama) {
    if (readEnv("PI_OFFLINE") !== undefined) return;
    void import("../../extensions/builtin/llama_cpp/provider.ts").then(async (provider) => {
      await provider.refreshLlamaModelsQuietly(app.session.modelRegistry, getAgentDir());
      app.requestRender();
    });
    return;
  }
  void import("./login_catalog_refresh.ts").then(async ({ refreshCatalogAfterLogin }) => {
    await refreshCatalogAfterLogin(app, option.id, action);
    // Not over a model or session chosen while the refresh ran.
    if (deferred && app.session === session && session.model === previousModel) {
      await finish();
      app.requestRender();
    }
  });
}
