/**
 * A stand-in for `pi --mode rpc` used by the RPC tests: builds an AgentSessionRuntime (like the
 * CLI's factory) (agent dir from PI_CODING_AGENT_DIR, cwd = process cwd) and serves RPC on
 * stdin/stdout. Flags: `--provider P --model M`, `--no-session`, `--ui-harness` (adds an
 * `ask_user` tool whose arguments drive the extension UI dialogs, so the UI sub-protocol can be
 * exercised without an extension system).
 *
 *   deno run --allow-all tests/support/rpc_host.ts --provider fake-anthropic --model test-model
 *
 * @module
 */
import type { SessionTool } from "../../src/core/agent_session.ts";
import {
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  type CreateAgentSessionRuntimeFactory,
  createAgentSessionServices,
} from "../../src/core/session_runtime.ts";
import { getAgentDir } from "../../src/config/paths.ts";
import { getDefaultSessionDir } from "../../src/session/paths.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import { runRpcMode } from "../../src/modes/rpc/rpc_mode.ts";
import type { RpcExtensionUI } from "../../src/modes/rpc/extension_ui.ts";

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i === -1 ? undefined : Deno.args[i + 1];
}

/** The dialog the `ask_user` tool opens, chosen by its `method` argument. */
function askUserTool(getUi: () => RpcExtensionUI | undefined): SessionTool {
  return {
    name: "ask_user",
    label: "Ask user",
    description: "Ask the user through an extension UI dialog.",
    parameters: {
      type: "object",
      properties: {
        method: { type: "string" },
        title: { type: "string" },
        timeout: { type: "number" },
      },
      required: ["method", "title"],
    },
    async execute(_id, params: { method: string; title: string; timeout?: number }, signal) {
      const ui = getUi();
      if (!ui) throw new Error("no UI");
      const opts = { timeout: params.timeout, signal };
      let answer: unknown;
      switch (params.method) {
        case "select":
          answer = await ui.select(params.title, ["A", "B"], opts);
          break;
        case "confirm":
          answer = await ui.confirm(params.title, "Sure?", opts);
          break;
        case "input":
          answer = await ui.input(params.title, "type here", opts);
          break;
        case "editor":
          answer = await ui.editor(params.title, "prefill", { signal });
          break;
        default:
          ui.notify(params.title, "info");
          ui.setStatus("k", params.title);
          ui.setWidget("w", [params.title], { placement: "belowEditor" });
          ui.setTitle(params.title);
          ui.setEditorText(params.title);
          answer = "sent";
      }
      return { content: [{ type: "text", text: `answer: ${JSON.stringify(answer ?? null)}` }], details: {} };
    },
  };
}

const cwd = Deno.cwd();
const agentDir = getAgentDir();
const provider = flag("--provider");
const modelId = flag("--model");
const noSession = Deno.args.includes("--no-session");
let ui: RpcExtensionUI | undefined;
const customTools = Deno.args.includes("--ui-harness") ? [askUserTool(() => ui)] : undefined;

/** Like the CLI's factory: fresh services per cwd; the flag model only for the first session. */
let first = true;
const factory: CreateAgentSessionRuntimeFactory = async (options) => {
  const services = await createAgentSessionServices({ cwd: options.cwd, agentDir: options.agentDir });
  const model = first && provider && modelId ? services.modelRegistry.find(provider, modelId) : undefined;
  if (first && provider && modelId && !model) {
    throw new Error(`rpc_host: unknown model ${provider}/${modelId}`);
  }
  first = false;
  const result = await createAgentSessionFromServices({
    services,
    sessionManager: options.sessionManager,
    model,
    customTools,
  });
  return { ...result, services, diagnostics: [] };
};
const runtime = await createAgentSessionRuntime(factory, {
  cwd,
  agentDir,
  sessionManager: noSession
    ? SessionManager.inMemory(cwd)
    : SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir)),
});
const code = await runRpcMode(runtime, { onExtensionUI: (context) => (ui = context) });
Deno.exit(code);
