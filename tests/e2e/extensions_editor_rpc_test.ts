/**
 * The editor hooks of `ctx.ui` in RPC mode (EXT-07): 1.6.0 ignores `setEditorComponent`,
 * `addAutocompleteProvider`, `setHiddenThinkingLabel` and `setWorkingIndicator` there (the client
 * draws) and `getEditorComponent` is undefined. 1.6.0's editor examples and a probe extension run
 * over RPC on ours and on 1.6.0; the records each client sees must be equal, with no extension error.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { comparableRpc, MODEL, startRpc } from "./extensions_harness.ts";

const PROBE = `
export default function (pi) {
  pi.registerCommand("probe", {
    handler: (_args, ctx) => {
      ctx.ui.addAutocompleteProvider((current) => current);
      ctx.ui.setEditorComponent(() => { throw new Error("an editor is never built in RPC mode"); });
      ctx.ui.setHiddenThinkingLabel("Mulling");
      ctx.ui.setWorkingIndicator({ frames: ["."] });
      ctx.ui.notify("editor=" + String(ctx.ui.getEditorComponent()), "info");
    },
  });
}
`;

const EXAMPLES = [
  "modal-editor.ts",
  "rainbow-editor.ts",
  "border-status-editor.ts",
  "hidden-thinking-label.ts",
];

Deno.test("EXT-07 RPC: the editor hooks do nothing over RPC, and 1.6.0's editor examples load there without an error, as in 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const dir = await Deno.makeTempDir({ prefix: "pi_editor_rpc_" });
  try {
    const probe = join(dir, "probe.ts");
    await Deno.writeTextFile(probe, PROBE);
    const examples = join(requireReference().packageDir, "examples", "extensions");
    const args = ["-ne", ...EXAMPLES.flatMap((name) => ["-e", join(examples, name)]), "-e", probe, ...MODEL];
    const out: unknown[][] = [];
    for (const reference of [false, true]) {
      const rpc = await startRpc(args, [], reference);
      try {
        await rpc.send({ id: "1", type: "prompt", message: "/probe" });
        await rpc.waitFor((r) => r.method === "notify", "the probe's notice");
        await rpc.waitFor((r) => r.type === "response" && r.id === "1", "the prompt's answer");
      } finally {
        const { stderr } = await rpc.close();
        out.push([...comparableRpc(rpc.records, rpc.root), { stderr: stderr.split("\n").filter((l) => l) }]);
      }
    }
    const [ours, ref] = out;
    assertEquals(ours.filter((r) => (r as { method?: string }).method === "notify"), [
      {
        type: "extension_ui_request",
        id: "$UI",
        method: "notify",
        message: "editor=undefined",
        notifyType: "info",
      },
    ]);
    assertEquals(ours.some((r) => (r as { type?: string }).type === "extension_error"), false);
    assertEquals(ours, ref);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
