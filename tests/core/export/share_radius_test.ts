/**
 * Sharing as a Radius artifact (TUI-05, pi 1.6.0's `/share` with a Radius login): the request our
 * code sends to a fake gateway (URL, query, headers, the JSONL body with the `pi.share` entry) equals
 * the one 1.6.0's own `shareSession` sends for the same session file, system prompt and tools (run
 * under the reference's node by tests/fixtures/share_radius/capture_share.mjs), and each failing
 * reply gives 1.6.0's error text.
 */
import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { requireReference } from "../../../scripts/reference/locate.ts";
import { SessionManager } from "../../../src/session/session_manager.ts";
import {
  radiusToken,
  serializeShareJsonl,
  type ShareTool,
  uploadRadiusArtifact,
} from "../../../src/core/export/share_radius.ts";
import { ShareError } from "../../../src/core/export/share_gist.ts";
import {
  FAKE_ARTIFACT_URL,
  type GatewayRequest,
  startFakeRadiusGateway,
} from "../../support/fake_radius_gateway.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;
const SESSION = `${FIXTURES}export/rich.jsonl`;
const STATE = `${FIXTURES}share_radius/state.json`;
const CAPTURE = `${FIXTURES}share_radius/capture_share.mjs`;
const TOKEN = "radius-test-token";

interface Shown {
  statuses: string[];
  errors: string[];
}

/** 1.6.0's `/share` for the fixture against `gateway`, under the reference's node. */
async function referenceShare(gateway: string, destination: string, token: string): Promise<Shown> {
  const ref = requireReference();
  const out = await new Deno.Command(ref.node, {
    args: [CAPTURE, SESSION, STATE, gateway, destination, token],
    env: { PI_REFERENCE_DIR: ref.nodeModules.replace(/\/node_modules$/, "") },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim());
}

async function ourSession() {
  const state = JSON.parse(await Deno.readTextFile(STATE)) as { systemPrompt: string; tools: ShareTool[] };
  return { sessionManager: SessionManager.open(SESSION), state };
}

/** The request with what differs from run to run (the export time, the share entry's id) replaced. */
function normalise(request: GatewayRequest) {
  const lines = request.body.split("\n");
  assertEquals(lines.pop(), "", "the body ends with a newline");
  const entries = lines.map((line) => JSON.parse(line));
  const header = entries[0];
  const share = entries[entries.length - 1];
  assertEquals(share.timestamp, header.timestamp, "the share entry carries the export time");
  assert(/^[0-9a-f]{8}$/.test(share.id), share.id);
  header.timestamp = "<time>";
  share.timestamp = "<time>";
  share.id = "<id>";
  const { authorization, "content-type": contentType, "content-length": contentLength } = request.headers;
  return {
    method: request.method,
    path: request.path,
    headers: { authorization, contentType, contentLength },
    entries,
  };
}

Deno.test("TUI-05 /share to Radius: the request (URL, headers, JSONL with the pi.share entry) equals 1.6.0's; the artifact's URL is answered", async () => {
  const gateway = startFakeRadiusGateway();
  try {
    const ref = await referenceShare(gateway.url, "auto", TOKEN);
    assertEquals(ref.errors, []);
    assertEquals(ref.statuses.length, 1);
    const url = await uploadRadiusArtifact(serializeShareJsonl(await ourSession()), TOKEN, {
      gatewayUrl: gateway.url,
    });
    assertEquals(url, FAKE_ARTIFACT_URL);
    assert(ref.statuses[0].includes(FAKE_ARTIFACT_URL));
    assertEquals(gateway.requests.length, 2);
    const [theirs, ours] = gateway.requests.map(normalise);
    assertEquals(ours, theirs);
    assertEquals(ours.path, "/v1/artifacts?visibility=organization&title=Pi+session");
    assertEquals(ours.headers.authorization, `Bearer ${TOKEN}`);
    assertEquals(ours.entries.at(-1).customType, "pi.share");
    assertEquals(ours.entries.at(-1).data.systemPrompt, "You are pi.");
  } finally {
    await gateway.close();
  }
});

Deno.test("TUI-05 /share to Radius: failing replies give 1.6.0's 'Failed to upload Radius artifact: …' texts", async () => {
  const gateway = startFakeRadiusGateway();
  const replies: Array<() => Response> = [
    () => Response.json({ error: "artifact quota exceeded" }, { status: 429 }),
    () => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
    () => Response.json({ ok: true }),
  ];
  try {
    const body = serializeShareJsonl(await ourSession());
    for (const reply of replies) {
      gateway.answer = reply;
      const ref = await referenceShare(gateway.url, "radius", TOKEN);
      assertEquals(ref.statuses, []);
      assertEquals(ref.errors.length, 1);
      const error = await assertRejects(
        () => uploadRadiusArtifact(body, TOKEN, { gatewayUrl: gateway.url }),
      );
      assert(error instanceof ShareError, String(error));
      assertEquals(error.message, ref.errors[0]);
    }
    assertEquals(
      (await referenceShare(gateway.url, "radius", "")).errors,
      ["Radius authentication is not configured. Run '/login radius' first."],
    );
  } finally {
    await gateway.close();
  }
});

Deno.test("TUI-05 /share to Radius: the token is the login's key or an Authorization bearer header, none without a login", async () => {
  const runtime = (auth: { apiKey?: string; headers?: Record<string, string> } | undefined) => ({
    modelRuntime: {
      getAuth: (id: string) => Promise.resolve(id === "radius" && auth ? { auth } : undefined),
    },
  });
  assertEquals(await radiusToken(runtime({ apiKey: "k1" })), "k1");
  assertEquals(await radiusToken(runtime({ headers: { authorization: "Bearer h2" } })), "h2");
  assertEquals(await radiusToken(runtime({ headers: { "x-other": "v" } })), undefined);
  assertEquals(await radiusToken(runtime(undefined)), undefined);
});
