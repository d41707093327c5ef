/**
 * PROV-02 end to end for Google Vertex AI: our `pi` and pi 1.6.0's CLI with the same
 * models.json (a Gemini model of the built-in `google-vertex` provider, its baseUrl at the fake
 * Vertex endpoint) and GOOGLE_CLOUD_API_KEY (express mode) run the write/read/edit scenario in
 * JSON mode; the requests (URL, API key header, body) and the JSON records must be equal once
 * normalised.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const MODEL_ID = "gemini-2.5-flash-fake";

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: (url) => ({
      providers: {
        "google-vertex": {
          baseUrl: url,
          models: [{
            id: MODEL_ID,
            name: "Gemini 2.5 Flash (fake)",
            api: "google-vertex",
            reasoning: false,
            input: ["text", "image"],
            contextWindow: 1048576,
            maxTokens: 65536,
            cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
          }],
        },
      },
    }),
    args: ["--model", `google-vertex/${MODEL_ID}`],
    env: { GOOGLE_CLOUD_API_KEY: "vertex-cli-test-key" },
    view: (r: RecordedRequest) => ({
      url: r.url,
      apiKey: r.headers["x-goog-api-key"],
      authorization: r.headers.authorization,
      body: r.body,
    }),
  });
}

Deno.test("PROV-02 Google Vertex via the CLI: requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});

Deno.test("PROV-01 Google Vertex via the CLI with a service-account file: one token for the whole run, project path, no secret in the output", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pair = await crypto.subtle.generateKey(
      {
        name: "RSASSA-PKCS1-v1_5",
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["sign", "verify"],
    );
    const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    const pem = `-----BEGIN PRIVATE KEY-----\n${
      btoa(String.fromCharCode(...der))
    }\n-----END PRIVATE KEY-----\n`;
    const keyFile = `${dir}/sa.json`;
    const ours = await runWireCli({
      reference: false,
      turns: writeReadEditTurns(),
      models: () => ({ providers: {} }),
      args: ["--model", "google-vertex/gemini-2.5-flash"],
      env: (url) => {
        Deno.writeTextFileSync(
          keyFile,
          JSON.stringify({
            type: "service_account",
            private_key: pem,
            client_email: "cli@p.iam.gserviceaccount.com",
            token_uri: `${url}/token`,
          }),
        );
        return {
          GOOGLE_APPLICATION_CREDENTIALS: keyFile,
          GOOGLE_CLOUD_PROJECT: "cli-project",
          GOOGLE_CLOUD_LOCATION: "europe-west4",
          GOOGLE_VERTEX_BASE_URL: url,
        };
      },
      view: (r: RecordedRequest) => ({
        url: r.url,
        authorization: r.headers.authorization?.replace(/\d+$/, "<n>"),
      }),
    });
    assertEquals([ours.code, ours.stderr], [0, ""]);
    const chat = {
      url:
        "/v1/projects/cli-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      authorization: "Bearer fake-sa-token-<n>",
    };
    assertEquals(ours.requests, [{ url: "/token", authorization: undefined }, chat, chat, chat, chat]);
    assertEquals(ours.stdout.includes("fake-sa-token") || ours.stdout.includes("PRIVATE KEY"), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
