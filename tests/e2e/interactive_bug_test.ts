/**
 * `/bug` in the interactive mode beside pi 1.6.0, after one reply: cancelled at the description; then
 * `/bug it froze` → the description dialog (argument prefilled) → no transcript → no summary →
 * "Export as Zip". The same keys run in our `pi` and in the reference in panes of the same size;
 * the screens (report ids masked) and the `pi.bug-report` session entries must be equal, and the
 * zip in the working folder holds report.json (with the description) and diagnostics.json.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 45 };

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "reply", act: (s) => s.pane.command("hello"), ready: (t) => t.includes(" Hi there.") },
  {
    name: "dialog",
    act: (s) => s.pane.command("/bug"),
    ready: (t) => t.includes("Report a bug") && t.includes("What went wrong? (optional)"),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("Bug report cancelled") },
  {
    name: "prefilled",
    act: (s) => s.pane.command("/bug it froze"),
    ready: (t) => t.includes("Report a bug") && t.includes("it froze"),
  },
  {
    name: "transcript",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) =>
      t.includes("Include the session transcript?") && t.includes("→ Yes, include the transcript"),
  },
  {
    name: "summary",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.waitFor((t) => t.includes("→ No"), TIMEOUTS.step, "No");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("instead?") && t.includes("→ Yes, generate a summary"),
  },
  {
    name: "delivery",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.waitFor((t) => t.includes("→ No"), TIMEOUTS.step, "No");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Description: it froze") && t.includes("→ Upload Report"),
  },
  {
    name: "exported",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.waitFor((t) => t.includes("→ Export as Zip"), TIMEOUTS.step, "Export as Zip");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Report ID:"),
  },
];

/** Reads the names and texts of a zip's entries (deflated, as pi writes them). */
async function readZip(bytes: Uint8Array): Promise<Map<string, string>> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const files = new Map<string, string>();
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extra = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    const start = at + 30 + nameLength + extra;
    const packed = bytes.slice(start, start + size);
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    files.set(name, await new Response(stream).text());
    at = start + size;
  }
  return files;
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario([{ content: [{ type: "text", text: "Hi there." }] }], {
    reference,
    ...SIZE,
  });
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    const zips: string[] = [];
    for await (const entry of Deno.readDir(s.agent.cwd)) {
      if (/^pi-bug-report-.*\.zip$/.test(entry.name)) zips.push(entry.name);
    }
    assertEquals(zips.length, 1, "one archive in the working folder");
    const files = await readZip(await Deno.readFile(`${s.agent.cwd}/${zips[0]}`));
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const [file] = await s.agent.sessionFiles();
    const entries = (await readSessionLines(file)).filter((l) => l.type === "custom");
    const masked = entries.map((e) => {
      const data = e.data as Record<string, unknown>;
      return {
        customType: e.customType,
        data: {
          ...data,
          id: typeof data.id,
          createdAt: typeof data.createdAt,
          path: String(data.path).slice(-4),
        },
      };
    });
    const id = (entries[0]?.data as { id?: string } | undefined)?.id;
    return { screens, files, zip: zips[0], id, entries: masked };
  } finally {
    await s.close();
  }
}

Deno.test("INT-BUG: /bug asks, then exports the report as a zip and records it in the session, as pi 1.6.0", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.entries, reference.entries);
  assertEquals(ours.entries.length, 1);
  assertEquals(ours.zip, `pi-bug-report-${ours.id}.zip`);
  assertEquals([...ours.files.keys()], [...reference.files.keys()]);
  assertEquals([...ours.files.keys()], ["report.json", "diagnostics.json"]);
  const report = JSON.parse(ours.files.get("report.json")!);
  assertEquals([report.id, report.hint, report.session.included, report.session.summaryIncluded], [
    ours.id,
    "it froze",
    false,
    false,
  ]);
  assert(ours.screens[8].includes(`Report ID: <uuid>`), ours.screens[8]);
});
