/**
 * PROV-02 end to end for Cloudflare (AI Gateway and Workers AI): our `pi` and pi 1.6.0's CLI run
 * the write/read/edit scenario in JSON mode with the same models.json (models of the built-in
 * `cloudflare-ai-gateway` / `cloudflare-workers-ai` providers whose base URLs keep 1.6.0's
 * `{CLOUDFLARE_ACCOUNT_ID}` / `{CLOUDFLARE_GATEWAY_ID}` placeholders, on the fake server) and
 * CLOUDFLARE_API_KEY / _ACCOUNT_ID / _GATEWAY_ID in the environment. The placeholders must be
 * filled the same way, the key must travel in the same header (`cf-aig-authorization` for the
 * gateway, a bearer token for Workers AI), and the requests and JSON records must be equal.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const ENV = {
  CLOUDFLARE_API_KEY: "cf-test-token-0001",
  CLOUDFLARE_ACCOUNT_ID: "acct123",
  CLOUDFLARE_GATEWAY_ID: "gw-main",
};

interface CloudflareCase {
  name: string;
  provider: "cloudflare-ai-gateway" | "cloudflare-workers-ai";
  api: "openai-responses" | "openai-completions" | "anthropic-messages";
  /** The base URL after the server's, placeholders included. */
  path: string;
  /** The URL path the fake server must see for the first request. */
  expectedPath: string;
  reasoning: boolean;
}

const CASES: CloudflareCase[] = [
  {
    name: "AI Gateway, OpenAI passthrough (openai-responses)",
    provider: "cloudflare-ai-gateway",
    api: "openai-responses",
    path: "/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/openai",
    expectedPath: "/v1/acct123/gw-main/openai/responses",
    reasoning: true,
  },
  {
    name: "AI Gateway, Anthropic passthrough (anthropic-messages)",
    provider: "cloudflare-ai-gateway",
    api: "anthropic-messages",
    path: "/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/anthropic",
    expectedPath: "/v1/acct123/gw-main/anthropic/v1/messages",
    reasoning: true,
  },
  {
    name: "AI Gateway, unified API (openai-completions)",
    provider: "cloudflare-ai-gateway",
    api: "openai-completions",
    path: "/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat",
    expectedPath: "/v1/acct123/gw-main/compat/chat/completions",
    reasoning: false,
  },
  {
    name: "Workers AI (openai-completions)",
    provider: "cloudflare-workers-ai",
    api: "openai-completions",
    path: "/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1",
    expectedPath: "/client/v4/accounts/acct123/ai/v1/chat/completions",
    reasoning: false,
  },
];

function run(c: CloudflareCase, reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: (url) => ({
      providers: {
        [c.provider]: {
          models: [{
            id: "fake-model",
            name: "Fake model",
            api: c.api,
            baseUrl: `${url}${c.path}`,
            reasoning: c.reasoning,
            input: ["text"],
            contextWindow: 128000,
            maxTokens: 16384,
            cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 0 },
          }],
        },
      },
    }),
    args: ["--model", `${c.provider}/fake-model`],
    env: ENV,
    view: (r: RecordedRequest) => ({
      path: r.path,
      authorization: r.headers.authorization,
      gatewayAuthorization: r.headers["cf-aig-authorization"],
      apiKey: r.headers["x-api-key"],
      body: r.body,
    }),
  });
}

for (const c of CASES) {
  Deno.test(`PROV-02 Cloudflare ${c.name} via the CLI: requests and JSON records equal pi 1.6.0's`, async () => {
    requireReferenceCli();
    const [ours, theirs] = await Promise.all([run(c, false), run(c, true)]);
    assertEquals(theirs.code, 0, theirs.stderr);
    assertEquals(ours.requests.length, 4);
    assertEquals((ours.requests[0] as { path: string }).path, c.expectedPath);
    assertEquals(ours.requests, theirs.requests);
    assertEquals(ours.jsonLines, theirs.jsonLines);
    assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
  });
}
