/**
 * `/scoped-models`: the "Model Configuration" selector over the available models. A change sets
 * the session's scoped models at once (the models Ctrl+P cycles through); Ctrl+S saves the
 * selection as `enabledModels` in the user's settings.json (removed when every model is enabled),
 * as pi 1.6.0 does. Loaded when the command first runs.
 *
 * @module
 */
import type { Model } from "../../ai/types.ts";
import { resolveModelScopeFromModels, type ScopedModel } from "../../config/model_resolver.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { Container } from "../../tui/mod.ts";
import type { ChatView } from "./chat_view.ts";
import { type EnabledIds, ScopedModelsSelector } from "./scoped_models_selector.ts";
import type { Theme } from "./theme.ts";

/** What the command acts on: the running interactive mode. */
export interface ScopedModelsHost {
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  showSelector(component: Container & { focused?: boolean }): () => void;
  requestRender(): void;
}

const fullId = (model: Model) => `${model.provider}/${model.id}`;

/** The `enabledModels` patterns resolved against `models`; patterns that match nothing stay listed (unavailable). */
async function configuredIds(patterns: string[] | undefined, models: Model[]): Promise<EnabledIds> {
  if (!patterns?.length) return null;
  const resolved = await resolveModelScopeFromModels(patterns, models);
  const ids = resolved.scopedModels.map((s) => fullId(s.model));
  for (const d of resolved.diagnostics) {
    if (d.code === "no-match" && !ids.includes(d.pattern)) ids.push(d.pattern);
  }
  return ids;
}

/** Opens the selector; changes apply to the session while it is open. */
export async function openScopedModels(app: ScopedModelsHost): Promise<void> {
  const session = app.session;
  const settings = session.settingsManager;
  const registry = session.modelRegistry;
  // models.json is read again, as 1.6.0 refreshes its catalogs when the selector opens.
  registry.refresh();
  const error = registry.getError();
  const models = registry.getAvailable();
  const available = new Set(models.map(fullId));
  const scoped = session.scopedModels;
  const enabled: EnabledIds = scoped.length > 0
    ? scoped.map((s) => fullId(s.model))
    : await configuredIds(settings.getEnabledModels(), models);
  // Changes resolve one after another, so a quick second toggle cannot be overtaken by the first.
  let applying = Promise.resolve();
  const apply = (ids: EnabledIds) => {
    applying = applying.then(async () => {
      const someAvailable = ids?.some((id) => available.has(id)) ?? false;
      const allAvailable = ids !== null && [...available].every((id) => ids.includes(id));
      let next: ScopedModel[] = [];
      if (ids && someAvailable && !allAvailable) {
        next = (await resolveModelScopeFromModels(ids, models)).scopedModels.map((s) => ({
          model: s.model,
          thinkingLevel: s.thinkingLevel,
        }));
      }
      session.setScopedModels(next);
      app.requestRender();
    });
  };
  let done = () => {};
  const status = error
    ? { text: `Could not refresh model catalogs: ${error.split("\n")[0]}`, kind: "warning" as const }
    : { text: "Model catalogs refreshed.", kind: "success" as const };
  const selector = new ScopedModelsSelector(app.theme, models, enabled, status, {
    onChange: apply,
    onPersist: (ids) => {
      const all = ids !== null && ids.length === models.length && ids.every((id) => available.has(id));
      settings.setEnabledModels(ids === null || all ? undefined : [...ids]);
      app.chat.addNotice("status", "Model selection saved to settings");
      app.requestRender();
    },
    onCancel: () => done(),
  });
  done = app.showSelector(selector);
}
