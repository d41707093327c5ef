/**
 * Project trust for a subcommand (`pi install`, `pi config` …): nobody is asked, so it is the
 * `--approve`/`--no-approve` flag, else a saved decision, else the `defaultProjectTrust` setting.
 * A broken trust.json throws with a message naming it.
 *
 * @module
 */
import { resolveProjectTrust } from "../config/project_trust.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import type { SubcommandContext } from "./subcommand_context.ts";

/** Whether the project at `ctx.cwd` is trusted for this subcommand. */
export function resolveSubcommandTrust(
  ctx: SubcommandContext,
  flag: boolean | undefined,
  settingsManager: SettingsManager,
): Promise<boolean> {
  return resolveProjectTrust({
    cwd: ctx.cwd,
    agentDir: ctx.agentDir,
    flag,
    defaultProjectTrust: settingsManager.getDefaultProjectTrust(),
    interactive: false,
  });
}
