/** The extension UI sub-protocol: request shapes, answers, timeouts, aborts. IDs: RPC-26, RPC-27. */
import { assertEquals } from "../../support/assert.ts";
import { RpcExtensionUI } from "../../../src/modes/rpc/extension_ui.ts";
import type { RpcExtensionUIRequest } from "../../../src/modes/rpc/rpc_types.ts";

function setup() {
  const sent: RpcExtensionUIRequest[] = [];
  let n = 0;
  const ui = new RpcExtensionUI((r) => void sent.push(JSON.parse(JSON.stringify(r))), () => `id${++n}`);
  return { ui, sent };
}

Deno.test("RPC-26 RPC-27 dialogs send requests and resolve with the matching answer; unknown ids are ignored", async () => {
  const { ui, sent } = setup();
  const select = ui.select("Pick", ["A", "B"], { timeout: 5000 });
  const confirm = ui.confirm("Sure?", "Really?");
  const input = ui.input("Name", "type");
  const editor = ui.editor("Edit", "pre");
  assertEquals(sent, [
    {
      type: "extension_ui_request",
      id: "id1",
      method: "select",
      title: "Pick",
      options: ["A", "B"],
      timeout: 5000,
    },
    { type: "extension_ui_request", id: "id2", method: "confirm", title: "Sure?", message: "Really?" },
    { type: "extension_ui_request", id: "id3", method: "input", title: "Name", placeholder: "type" },
    { type: "extension_ui_request", id: "id4", method: "editor", title: "Edit", prefill: "pre" },
  ]);
  assertEquals(ui.handleResponse({ type: "extension_ui_response", id: "nope", value: "x" }), false);
  ui.handleResponse({ type: "extension_ui_response", id: "id1", value: "B" });
  ui.handleResponse({ type: "extension_ui_response", id: "id2", confirmed: true });
  ui.handleResponse({ type: "extension_ui_response", id: "id3", cancelled: true });
  ui.handleResponse({ type: "extension_ui_response", id: "id4", value: "edited" });
  assertEquals(await Promise.all([select, confirm, input, editor]), ["B", true, undefined, "edited"]);
  assertEquals(ui.pendingCount, 0);
  // A second answer to a settled dialog is ignored.
  assertEquals(ui.handleResponse({ type: "extension_ui_response", id: "id1", value: "A" }), false);
});

Deno.test("RPC-27 timeouts, aborts and cancelAll resolve dialogs with their defaults", async () => {
  const { ui, sent } = setup();
  assertEquals(await ui.confirm("t", "m", { timeout: 20 }), false);
  assertEquals(await ui.select("t", ["A"], { timeout: 20 }), undefined);
  const controller = new AbortController();
  const aborted = ui.input("t", undefined, { signal: controller.signal });
  controller.abort();
  assertEquals(await aborted, undefined);
  assertEquals(await ui.confirm("t", "m", { signal: controller.signal }), false);
  assertEquals(sent.length, 3, "an already-aborted dialog sends nothing");
  const open = [ui.editor("e"), ui.confirm("c", "m")];
  ui.cancelAll();
  assertEquals(await Promise.all(open), [undefined, false]);
  assertEquals(ui.pendingCount, 0);
});

Deno.test("RPC-26 RPC-27 fire-and-forget requests and RPC-only behaviour of the other UI calls", () => {
  const { ui, sent } = setup();
  ui.notify("hello", "warning");
  ui.setStatus("k", "busy");
  ui.setStatus("k", undefined);
  ui.setWidget("w", ["l1"], { placement: "aboveEditor" });
  ui.setWidget("w", () => null);
  ui.setWidget("w", undefined);
  ui.setTitle("T");
  ui.pasteToEditor("p");
  assertEquals(sent, [
    { type: "extension_ui_request", id: "id1", method: "notify", message: "hello", notifyType: "warning" },
    { type: "extension_ui_request", id: "id2", method: "setStatus", statusKey: "k", statusText: "busy" },
    { type: "extension_ui_request", id: "id3", method: "setStatus", statusKey: "k" },
    {
      type: "extension_ui_request",
      id: "id4",
      method: "setWidget",
      widgetKey: "w",
      widgetLines: ["l1"],
      widgetPlacement: "aboveEditor",
    },
    { type: "extension_ui_request", id: "id5", method: "setWidget", widgetKey: "w" },
    { type: "extension_ui_request", id: "id6", method: "setTitle", title: "T" },
    { type: "extension_ui_request", id: "id7", method: "set_editor_text", text: "p" },
  ]);
  assertEquals(ui.getEditorText(), "");
  assertEquals(ui.getAllThemes(), []);
  assertEquals(ui.setTheme("dark"), { success: false, error: "Theme switching not supported in RPC mode" });
  assertEquals(ui.hasUI, true);
});
