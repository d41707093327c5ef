/**
 * `/export [path]` and `/share` in the interactive mode beside pi 1.6.0 (TUI-05, HTML-04): the
 * same script (a reply, `/export` to the default page name, `/export out.jsonl`, `/export` to a
 * quoted path with a space, `/share` through a stand-in `gh` on the child's PATH, a `/share`
 * cancelled with Escape while the upload hangs, then `/share` while `gh` is logged out) runs in our `pi` and in the reference, in tmux panes of the same size.
 * Screens, the files written (the pages' embedded session data, the JSONL branch) and the calls
 * made to `gh` must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { shellQuote, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { fromBase64 } from "../../src/util/bytes.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [{ content: [{ type: "text", text: "Answer one." }] }];

/** A stand-in `gh`: logs its calls, keeps the uploaded page, answers a gist URL. */
const FAKE_GH = `#!/bin/sh
echo "$*" >> "$FAKE_GH_DIR/gh.log"
case "$1" in
  auth) if [ -e "$FAKE_GH_DIR/logged-out" ]; then echo "You are not logged into any GitHub hosts." >&2; exit 1; fi; exit 0 ;;
  gist)
    # While "slow" exists the upload hangs (for at most 30 s) until pi stops it.
    i=0; while [ -e "$FAKE_GH_DIR/slow" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    cp "$4" "$FAKE_GH_DIR/uploaded.html"; echo "https://gist.github.com/tester/0a1b2c3d4e5f"; exit 0 ;;
esac
exit 2
`;

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  { name: "reply", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  {
    name: "export html",
    act: (s) => s.pane.command("/export"),
    ready: (t) => t.includes("Session exported to:"),
  },
  {
    name: "export jsonl",
    act: (s) => s.pane.command("/export out.jsonl"),
    ready: (t) => t.includes("exported to: ") && t.includes("out.jsonl"),
  },
  {
    name: "export quoted",
    act: (s) => s.pane.command(`/export "my page.html" ignored`),
    ready: (t) => t.includes("my page.html"),
  },
  { name: "share", act: (s) => s.pane.command("/share"), ready: (t) => t.includes("Gist: https://gist") },
  {
    name: "share waiting",
    act: async (s) => {
      await Deno.writeTextFile(`${s.agent.root}/gh/slow`, "");
      await s.pane.command("/share");
    },
    ready: (t) => t.includes("Creating gist...") && t.includes("cancel"),
  },
  {
    name: "share cancelled",
    act: async (s) => {
      await s.pane.keys("Escape");
      await s.pane.waitFor((t) => t.includes("Share cancelled"), TIMEOUTS.step, "the cancelled share");
      await Deno.remove(`${s.agent.root}/gh/slow`);
    },
    ready: (t) => t.includes("Share cancelled"),
  },
  {
    name: "share logged out",
    act: async (s) => {
      await Deno.writeTextFile(`${s.agent.root}/gh/logged-out`, "");
      await s.pane.command("/share");
    },
    ready: (t) => t.includes("not logged in"),
  },
];

/** The session data a page embeds, with ids, times and the temp root masked. */
function pageData(html: string, root: string): unknown {
  const match = /<script id="session-data" type="application\/json">([^<]*)<\/script>/.exec(html);
  assert(match, "the page embeds session data");
  const data = JSON.parse(new TextDecoder().decode(fromBase64(match[1]))) as {
    header: Record<string, unknown>;
    entries: Record<string, unknown>[];
    leafId: string;
    systemPrompt?: string;
    tools?: { name: string }[];
  };
  const ids = new Map(data.entries.map((e, i) => [e.id, `<entry ${i}>`]));
  return {
    header: {
      type: data.header.type,
      version: data.header.version,
      cwd: mask(String(data.header.cwd), root),
    },
    entries: data.entries.map((e) => maskEntry(e, ids)),
    leafId: ids.get(data.leafId),
    tools: data.tools?.map((t) => t.name),
    // The prompt names the date, the project folder and where each program's docs are installed.
    systemPrompt: mask(data.systemPrompt ?? "", root)
      .replace(/\d{4}-\d{2}-\d{2}/g, "<date>")
      .replace(/^(- (?:Main documentation|Additional docs|Examples): )\S+/gm, "$1<docs>"),
  };
}

function mask(text: string, root: string): string {
  return text.replaceAll(root, "<root>");
}

/** An entry without its id, time and the message's timestamp. */
function maskEntry(e: Record<string, unknown>, ids: Map<unknown, string>): unknown {
  const message = e.message as Record<string, unknown> | undefined;
  return {
    type: e.type,
    id: ids.get(e.id),
    parentId: ids.get(e.parentId) ?? e.parentId,
    ...(message ? { role: message.role, content: message.content } : {}),
  };
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    const ghDir = `${s.agent.root}/gh`;
    await Deno.mkdir(ghDir);
    await Deno.writeTextFile(`${ghDir}/gh`, FAKE_GH);
    await Deno.chmod(`${ghDir}/gh`, 0o755);
    await s.pane.command(
      `clear; PATH=${shellQuote(ghDir)}:"$PATH" FAKE_GH_DIR=${shellQuote(ghDir)} ${s.piCommand()}`,
    );
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const files: Record<string, unknown> = {};
    const names = [];
    for await (const entry of Deno.readDir(s.agent.cwd)) names.push(entry.name);
    for (const name of names.sort()) {
      const text = await Deno.readTextFile(`${s.agent.cwd}/${name}`);
      const key = s.normalized(name);
      if (name.endsWith(".html")) files[key] = pageData(text, s.agent.root);
      else {
        const lines = text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
        const ids = new Map(lines.map((l, i) => [l.id, `<entry ${i}>`]));
        files[key] = lines.map((l) =>
          l.type === "session" ? { type: l.type, version: l.version } : maskEntry(l, ids)
        );
      }
    }
    const calls = (await Deno.readTextFile(`${ghDir}/gh.log`)).trim().split("\n")
      .map((c) => c.replace(/\/[^ ]*\/pi-share-[^/]+\//, "<tmp>/"));
    const uploaded = pageData(await Deno.readTextFile(`${ghDir}/uploaded.html`), s.agent.root);
    return { screens, files, calls, uploaded };
  } finally {
    await s.close();
  }
}

Deno.test("TUI-05 HTML-04 /export writes the page (default name, quoted path) or the JSONL branch; /share uploads a private gist and shows its links; as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(Object.keys(ours.files), [
    "my page.html",
    "out.jsonl",
    "pi-session-<time>_<uuid>.html",
  ]);
  assertEquals(ours.files, reference.files);
  assertEquals(ours.calls, reference.calls);
  const gist = "gist create --public=false <tmp>/session.html";
  assertEquals(ours.calls, ["auth status", gist, "auth status", gist, "auth status"]);
  assertEquals(ours.uploaded, reference.uploaded);
});
