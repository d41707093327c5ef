/**
 * Extension renderers in the interactive mode (issue 16): a tool's `renderCall` and `renderResult`
 * draw its row (collapsed and expanded), a tool with `renderShell: "self"` draws without the box,
 * renderers that throw give way to the default rows, and `pi.registerMessageRenderer` draws custom
 * messages sent with `display: true` (a type without a renderer, or whose renderer throws or
 * returns nothing, gets the default `[type]` box), and `pi.registerEntryRenderer` draws entries
 * appended with `pi.appendEntry` (nothing when it returns nothing, an error line when it throws).
 * A session reopened with `-c` draws them the same way. The same keys run in our `pi` and in pi 1.6.0
 * (which loads the same file) in tmux panes of the same size; the chat must be the same.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { collectScreens, screenDifferences, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 90 };

/** The extension both pis load. */
const RENDER_EXTENSION = `
import { Text } from "@earendil-works/pi-tui";
import { existsSync } from "node:fs";

const params = { type: "object", properties: { city: { type: "string" } } };

export default function (pi) {
  pi.registerTool({
    name: "weather",
    label: "Weather",
    description: "Tells the weather",
    parameters: params,
    execute: async (_id, args) => ({
      content: [{ type: "text", text: "sunny\\nwarm\\ncalm" }],
      details: { city: args.city, degrees: 21 },
    }),
    renderCall: (args, theme) =>
      new Text(theme.fg("toolTitle", theme.bold("Weather for ")) + theme.fg("accent", String(args.city)), 0, 0),
    renderResult: (result, options, theme, context) =>
      new Text(
        theme.fg("success", "☀ " + result.details.city + " " + result.details.degrees + "°") +
          (options.expanded ? "\\n" + result.content[0].text : "") +
          " partial=" + options.isPartial + " error=" + context.isError + " args=" + context.args.city,
        0,
        0,
      ),
  });
  pi.registerTool({
    name: "slow",
    label: "Slow",
    description: "Reports progress, then waits for release.flag",
    parameters: params,
    execute: async (_id, _args, _signal, onUpdate) => {
      onUpdate({ content: [{ type: "text", text: "halfway" }], details: {} });
      while (!existsSync("release.flag")) await new Promise((resolve) => setTimeout(resolve, 50));
      return { content: [{ type: "text", text: "finished" }], details: {} };
    },
    renderCall: (_args, theme, context) =>
      new Text(
        theme.bold("Slow job") + " started=" + context.executionStarted + " complete=" + context.argsComplete,
        0,
        0,
      ),
    renderResult: (result, options) =>
      new Text((options.isPartial ? "working: " : "done: ") + result.content[0].text, 0, 0),
  });
  pi.registerTool({
    name: "broken",
    label: "Broken",
    description: "Renders badly",
    parameters: params,
    execute: async () => ({ content: [{ type: "text", text: "broken output" }], details: {} }),
    renderCall: () => { throw new Error("call renderer failed"); },
    renderResult: () => { throw new Error("result renderer failed"); },
  });
  pi.registerTool({
    name: "framed",
    label: "Framed",
    description: "Draws its own frame",
    parameters: params,
    renderShell: "self",
    execute: async () => ({ content: [{ type: "text", text: "framed output" }], details: {} }),
    renderCall: (args, theme) => new Text(theme.fg("warning", "[framed " + args.city + "]"), 1, 0),
    renderResult: (result, _options, theme) => new Text(theme.fg("muted", "= " + result.content[0].text), 1, 0),
  });
  pi.registerMessageRenderer("card", (message, options, theme) =>
    new Text(theme.fg("accent", "Card: " + message.content) + (options.expanded ? " (expanded)" : ""), 1, 0));
  pi.registerMessageRenderer("crash", () => { throw new Error("message renderer failed"); });
  pi.registerMessageRenderer("quiet", () => undefined);
  pi.registerEntryRenderer("status", (entry, options, theme) =>
    new Text(theme.fg("warning", "Status entry n=" + entry.data.n) + (options.expanded ? " (expanded)" : ""), 1, 0));
  pi.registerEntryRenderer("blank", () => undefined);
  pi.registerEntryRenderer("oops", () => { throw new Error("entry renderer failed"); });
  pi.registerCommand("cards", {
    handler: async () => {
      pi.sendMessage({ customType: "card", content: "hello card", display: true });
      pi.sendMessage({ customType: "plain", content: "no **renderer** here", display: true });
      pi.sendMessage({ customType: "crash", content: "renderer threw", display: true });
      pi.sendMessage({ customType: "quiet", content: "renderer returned nothing", display: true });
      pi.sendMessage({ customType: "card", content: "hidden card", display: false });
      pi.appendEntry("status", { n: 3 });
      pi.appendEntry("blank", {});
      pi.appendEntry("unrendered", {});
      pi.appendEntry("oops", {});
    },
  });
}
`;

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  content: [{ type: "toolCall", name, arguments: args }],
});

const TURNS: ScriptedTurn[] = [
  call("slow", {}),
  call("weather", { city: "Paris" }),
  call("broken", { city: "Oslo" }),
  call("framed", { city: "Rome" }),
  { content: [{ type: "text", text: "All done." }] },
];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "partial", act: (s) => s.pane.command("go"), ready: (t) => t.includes("working: halfway") },
  {
    name: "tools",
    act: (s) => Deno.writeTextFile(`${s.agent.cwd}/release.flag`, ""),
    ready: (t) => t.includes(" All done."),
  },
  {
    name: "messages",
    act: (s) => s.pane.command("/cards"),
    ready: (t) => t.includes("entry renderer failed"),
  },
  {
    name: "expanded",
    act: (s) => s.pane.keys("C-o"),
    ready: (t) => t.includes("Card: hello card (expanded)"),
  },
];

/** The chat: from the prompt `go` to the editor's top border. */
function chatOf(screen: string): string {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => line.trim() === "go");
  const end = lines.findIndex((line, i) => i > start && /^─+$/.test(line));
  return lines.slice(start, end === -1 ? undefined : end).join("\n").trimEnd();
}

async function runScript(reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario(TURNS, { reference, ...SIZE });
  try {
    const extension = `${s.agent.root}/render_demo.ts`;
    await Deno.writeTextFile(extension, RENDER_EXTENSION);
    await s.pane.command(`clear; ${s.piCommand(["-e", extension])}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    // The session reopened (-c): the same renderers draw the stored messages and entries.
    await s.pane.command(`clear; ${s.piCommand(["-c", "-e", extension])}`);
    await s.pane.waitFor((t) => t.includes("entry renderer failed"), TIMEOUTS.start, "the reopened session");
    screens.push(s.normalized(await s.pane.settle(500, 5_000)));
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after the second exit");
    return screens.slice(1).map(chatOf);
  } finally {
    await s.close();
  }
}

Deno.test("EXT-RENDER-01..05: tool renderCall/renderResult (default and self shell, throwing renderers), message and entry renderers draw the chat as in pi 1.6.0", async () => {
  const ours = await runScript(false);
  const [partial, tools, messages, expanded, reopened] = ours;
  // EXT-RENDER-01: the tool's components in its row: a partial result while it runs, the final one,
  // collapsed, then expanded.
  assert(partial.includes("\n Slow job started=true complete=true\n working: halfway\n"), partial);
  assert(tools.includes("\n Slow job started=true complete=true\n done: finished\n"), tools);
  assert(tools.includes("\n Weather for Paris\n ☀ Paris 21° partial=false error=false args=Paris\n"), tools);
  assert(
    expanded.includes("\n ☀ Paris 21°\n sunny\n warm\n calm partial=false error=false args=Paris\n"),
    expanded,
  );
  // EXT-RENDER-02: throwing renderers give way to the default call line and output.
  assert(tools.includes('\n broken city="Oslo"\n broken output\n'), tools);
  assert(tools.includes("\n [framed Rome]\n = framed output\n"), tools);
  // EXT-RENDER-03: custom messages; only displayed ones, the default box where no renderer draws.
  const cards = messages.slice(messages.indexOf(" All done."));
  for (const text of ["Card: hello card", "[plain]", "no renderer here", "[crash]", "[quiet]"]) {
    assert(cards.includes(text), `${text} in:\n${cards}`);
  }
  assertEquals(cards.includes("hidden card"), false);
  // EXT-RENDER-04: entries drawn by their renderers, in the order appended.
  assert(
    cards.endsWith("\n Status entry n=3\n\n\n [oops] renderer failed: entry renderer failed"),
    cards,
  );
  assert(expanded.includes("\n Status entry n=3 (expanded)\n"), expanded);
  // EXT-RENDER-05: a reopened session draws the same rows, collapsed; its calls' renderers are told
  // that nothing started in this run (as 1.6.0 tells them).
  assertEquals(
    reopened,
    messages.replace("Slow job started=true complete=true", "Slow job started=false complete=false"),
  );
  const reference = await runScript(true);
  const names = [...STEPS.slice(1).map((step) => step.name), "reopened"];
  const found = names.flatMap((name, i) => screenDifferences(name, ours[i], reference[i]));
  if (found.length > 0) {
    console.log(ours.join("\n=====\n"));
    throw new Error(`chat differs from pi 1.6.0's:\n${found.join("\n")}`);
  }
});
