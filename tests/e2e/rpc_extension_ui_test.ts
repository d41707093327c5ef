/**
 * The extension UI sub-protocol through a real RPC process: the host's `ask_user` harness tool
 * opens dialogs the way an extension would; the client answers, cancels, or lets them time out.
 * IDs: RPC-26, RPC-27.
 */
import { assertEquals } from "../support/assert.ts";
import { ofType, startRpc, textTurn } from "../modes/rpc/support.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";

function ask(method: string, title: string, timeout?: number): ScriptedTurn {
  return {
    content: [{
      type: "toolCall",
      id: `t_${title}`,
      name: "ask_user",
      arguments: { method, title, timeout },
    }],
  };
}

Deno.test("RPC-26 RPC-27 dialogs over stdio: answered, cancelled, timed out; fire-and-forget requests", async () => {
  const f = await startRpc([
    ask("select", "pick"),
    ask("confirm", "sure"),
    ask("input", "name"),
    ask("editor", "edit"),
    ask("input", "slow", 100),
    ask("show", "shown"),
    textTurn("done"),
  ], { args: ["--ui-harness"] });
  const c = f.client;
  try {
    const answers: Record<string, Record<string, unknown>> = {
      pick: { value: "B" },
      sure: { confirmed: true },
      name: { cancelled: true },
      edit: { value: "edited text" },
    };
    c.onEvent((e) => {
      if (e.type !== "extension_ui_request") return;
      const request = e as { id: string; title?: string };
      const answer = answers[request.title ?? ""];
      if (answer) void c.respondToUi({ id: request.id, ...answer } as never);
    });
    await c.promptAndWait("ask me");
    const results = ofType(f.events, "tool_execution_end").map((
      e,
    ) => ((e.result as { content: { text: string }[] }).content[0].text));
    assertEquals(results, [
      'answer: "B"',
      "answer: true",
      "answer: null",
      'answer: "edited text"',
      "answer: null",
      'answer: "sent"',
    ]);
    const requests = ofType(f.events, "extension_ui_request").map(({ id: _id, ...rest }) => rest);
    assertEquals(requests, [
      { type: "extension_ui_request", method: "select", title: "pick", options: ["A", "B"] },
      { type: "extension_ui_request", method: "confirm", title: "sure", message: "Sure?" },
      { type: "extension_ui_request", method: "input", title: "name", placeholder: "type here" },
      { type: "extension_ui_request", method: "editor", title: "edit", prefill: "prefill" },
      {
        type: "extension_ui_request",
        method: "input",
        title: "slow",
        placeholder: "type here",
        timeout: 100,
      },
      { type: "extension_ui_request", method: "notify", message: "shown", notifyType: "info" },
      { type: "extension_ui_request", method: "setStatus", statusKey: "k", statusText: "shown" },
      {
        type: "extension_ui_request",
        method: "setWidget",
        widgetKey: "w",
        widgetLines: ["shown"],
        widgetPlacement: "belowEditor",
      },
      { type: "extension_ui_request", method: "setTitle", title: "shown" },
      { type: "extension_ui_request", method: "set_editor_text", text: "shown" },
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-27 aborting the run withdraws an open dialog (it resolves to its default)", async () => {
  const f = await startRpc([ask("confirm", "never answered")], { args: ["--ui-harness"] });
  const c = f.client;
  try {
    const asked = c.waitForEvent((e) => e.type === "extension_ui_request");
    const end = c.collectEvents();
    await c.prompt("ask");
    await asked;
    await c.abort();
    await end;
    const result = ofType(f.events, "tool_execution_end")[0];
    assertEquals(result?.toolName, "ask_user");
    assertEquals((await c.getState()).isStreaming, false);
  } finally {
    await f.close();
  }
});
