/**
 * PROV-01 end to end through the CLI with workload identity federation: our `pi` and pi 1.6.0's,
 * each with its own fake Vertex endpoint and fake Google STS (tests/ai/fake_google_endpoints.ts),
 * read an `external_account` file (GOOGLE_APPLICATION_CREDENTIALS) whose subject token comes from
 * a URL, trade it at the STS, and call Vertex with the token and the file's quota project. The
 * STS requests, the Vertex requests and the JSON records must be equal.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest, ScriptedTurn } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { startFakeGoogle } from "./fake_google_endpoints.ts";

const MODEL_ID = "gemini-2.5-flash-fake";
const HELLO: ScriptedTurn = { content: [{ type: "text", text: "hello" }] };

async function run(reference: boolean) {
  const dir = await Deno.makeTempDir({ prefix: "pi-google-cli-" });
  const google = startFakeGoogle();
  try {
    await Deno.writeTextFile(
      `${dir}/adc.json`,
      JSON.stringify({
        type: "external_account",
        audience:
          "//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/pool/providers/ci",
        subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
        token_url: `${google.url}/v1/token`,
        quota_project_id: "quota-proj",
        credential_source: {
          url: `${google.url}/subject-token-json`,
          headers: { Metadata: "True" },
          format: { type: "json", subject_token_field_name: "id_token" },
        },
      }),
    );
    const result = await runWireCli({
      reference,
      turns: [HELLO],
      models: (url) => ({
        providers: {
          "google-vertex": {
            baseUrl: url,
            models: [{
              id: MODEL_ID,
              name: "Gemini 2.5 Flash (fake)",
              api: "google-vertex",
              reasoning: false,
              input: ["text"],
              contextWindow: 1048576,
              maxTokens: 65536,
              cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
            }],
          },
        },
      }),
      args: ["--model", `google-vertex/${MODEL_ID}`],
      env: {
        GOOGLE_APPLICATION_CREDENTIALS: `${dir}/adc.json`,
        GOOGLE_CLOUD_PROJECT: "proj",
        GOOGLE_CLOUD_LOCATION: "us-central1",
        METADATA_SERVER_DETECTION: "none",
      },
      view: (r: RecordedRequest) => ({
        url: r.url,
        authorization: r.headers.authorization,
        quotaProject: r.headers["x-goog-user-project"],
        body: r.body,
      }),
    });
    const sts = google.requests.map((r) => ({
      method: r.method,
      url: r.url,
      body: r.body,
      contentType: r.headers["content-type"],
      metadata: r.headers.metadata,
    }));
    return { result, sts };
  } finally {
    await google.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("PROV-01 Google Vertex via the CLI with workload identity federation: STS and Vertex requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.result.code, 0, theirs.result.stderr);
  assertEquals(ours.sts.map((r) => r.url), ["/subject-token-json", "/v1/token"]);
  assertEquals(ours.sts, theirs.sts);
  assertEquals(ours.result.requests, theirs.result.requests);
  assertEquals(
    (ours.result.requests[0] as { authorization?: string }).authorization,
    "Bearer sts-access-token",
  );
  assertEquals(ours.result.jsonLines, theirs.result.jsonLines);
  assertEquals([ours.result.code, ours.result.stderr], [theirs.result.code, theirs.result.stderr]);
});
