/**
 * `/share` through Radius in the interactive mode beside pi 1.6.0 (TUI-05): with a Radius login in
 * auth.json the same script (a reply, `/share` answered with an artifact link, a `/share` cancelled
 * with Escape while the gateway hangs, a `/share` the gateway refuses) runs in our `pi` and in the
 * reference, in tmux panes of the same size, against a fake gateway on 127.0.0.1 (ours through
 * PI_RADIUS_GATEWAY, the reference through a fetch redirect, since its `/share` always asks
 * https://radius.pi.dev). Screens and the uploaded JSONL must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import {
  artifactAnswer,
  type FakeRadiusGateway,
  type GatewayRequest,
  hangingAnswer,
  startFakeRadiusGateway,
} from "../support/fake_radius_gateway.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const TURNS: ScriptedTurn[] = [{ content: [{ type: "text", text: "Answer one." }] }];
const REDIRECT = new URL("../fixtures/share_radius/redirect_radius.mjs", import.meta.url).pathname;
const TOKEN = "radius-e2e-token";

/** A Radius login that does not expire during the test (no refresh is attempted). */
const AUTH = {
  radius: { type: "oauth", access: TOKEN, refresh: "radius-e2e-refresh", expires: 4_102_444_800_000 },
};

function steps(gateway: FakeRadiusGateway): ScriptStep[] {
  return [
    { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") },
    { name: "reply", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
    {
      name: "share",
      act: (s) => s.pane.command("/share"),
      ready: (t) => t.includes("Share URL: https://radius"),
    },
    {
      name: "share waiting",
      act: async (s) => {
        gateway.answer = hangingAnswer;
        await s.pane.command("/share");
      },
      ready: (t) => t.includes("Uploading to Radius...") && t.includes("cancel"),
    },
    {
      name: "share cancelled",
      act: (s) => s.pane.keys("Escape"),
      ready: (t) => t.includes("Share cancelled"),
    },
    {
      name: "share refused",
      act: async (s) => {
        gateway.answer = () => Response.json({ error: "artifact quota exceeded" }, { status: 429 });
        await s.pane.command("/share");
      },
      ready: (t) => t.includes("Failed to upload Radius artifact"),
    },
  ];
}

/** An uploaded body with ids, times and the temp root masked. */
function uploaded(request: GatewayRequest, root: string) {
  const lines = request.body.trim().split("\n").map((l) => JSON.parse(l.replaceAll(root, "<root>")));
  const ids = new Map(lines.map((l, i) => [l.id, `<entry ${i}>`]));
  return lines.map((l) => {
    const share = l.customType === "pi.share";
    return {
      type: l.type,
      id: ids.get(l.id),
      parentId: ids.get(l.parentId) ?? l.parentId,
      ...(l.message ? { role: l.message.role, content: l.message.content } : {}),
      ...(share
        ? {
          tools: l.data.tools.map((t: { name: string }) => t.name),
          // The prompt names the date and where each program's docs are installed.
          systemPrompt: String(l.data.systemPrompt).replace(/\d{4}-\d{2}-\d{2}/g, "<date>")
            .replace(/^(- (?:Main documentation|Additional docs|Examples): )\S+/gm, "$1<docs>"),
        }
        : {}),
    };
  });
}

async function runScript(reference: boolean) {
  const gateway = startFakeRadiusGateway();
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    await Deno.writeTextFile(`${s.agent.agentDir}/auth.json`, JSON.stringify(AUTH));
    const env = reference
      ? `NODE_OPTIONS=--import=${REDIRECT} PI_TEST_RADIUS_REDIRECT=${gateway.url}`
      : `PI_RADIUS_GATEWAY=${gateway.url}`;
    await s.pane.command(`clear; ${env} ${s.piCommand()}`);
    const script = steps(gateway);
    const screens = await collectScreens(s, script, TIMEOUTS);
    gateway.answer = artifactAnswer;
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const shares = gateway.requests.filter((r) => r.path.startsWith("/v1/artifacts"));
    return {
      script,
      screens,
      requests: shares.map((r) => ({
        method: r.method,
        path: r.path,
        authorization: r.headers.authorization,
        contentType: r.headers["content-type"],
      })),
      body: shares.length > 0 ? uploaded(shares[0], s.agent.root) : undefined,
    };
  } finally {
    await s.close();
    await gateway.close();
  }
}

Deno.test("TUI-05 /share with a Radius login uploads the branch to the gateway and shows the artifact link; Escape cancels; a refused upload shows 1.6.0's error; as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(ours.script, ours.screens, reference.screens);
  assertEquals(ours.requests.length, 3);
  assertEquals(ours.requests[0], {
    method: "POST",
    path: "/v1/artifacts?visibility=organization&title=Pi+session",
    authorization: `Bearer ${TOKEN}`,
    contentType: "application/x-ndjson",
  });
  assertEquals(ours.requests, reference.requests);
  assert(ours.body);
  assertEquals(ours.body.map((e) => e.role ?? e.type), [
    "session",
    "model_change",
    "thinking_level_change",
    "system",
    "user",
    "assistant",
    "custom",
  ]);
  assert(ours.body.at(-1)?.tools?.includes("bash"), JSON.stringify(ours.body.at(-1)));
  assertEquals(ours.body, reference.body);
  assert(ours.screens[2].includes("Share URL: https://radius.example/artifacts/a1b2c3"), ours.screens[2]);
  assert(
    ours.screens[5].includes("Failed to upload Radius artifact: artifact quota exceeded"),
    ours.screens[5],
  );
});
