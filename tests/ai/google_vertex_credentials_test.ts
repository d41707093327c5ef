/**
 * Vertex AI's Application Default Credentials beyond key files (issue 17): each case of
 * tests/ai/fixtures/google_credentials_capture.json (google-auth-library, which pi-ai 1.6.0's
 * @google/genai authenticates with, run against a fake Google server on a fixed clock) is replayed
 * against our code and tests/ai/fake_google_endpoints.ts — the metadata server, an
 * impersonated_service_account, external_account (file- and URL-sourced subject tokens, service
 * account impersonation, a workforce pool's user project) and external_account_authorized_user:
 * the same requests and bodies, the same token and quota project, then a Vertex call carrying
 * them. Tokens near expiry are fetched again; broken files and refusals name the file; no secret
 * appears in an error.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { complete } from "../../src/ai/stream.ts";
import { getModel } from "../../src/ai/models.ts";
import type { AssistantMessage, Context } from "../../src/ai/types.ts";
import { type FakeGoogle, type GoogleRequest, startFakeGoogle } from "./fake_google_endpoints.ts";
import { awsSubjectToken } from "../../src/ai/providers/google_vertex_auth_aws.ts";

interface CaptureCase {
  name: string;
  files: Record<string, string>;
  env: Record<string, string>;
  result: { token: string; quotaProjectId: string | null };
  requests: GoogleRequest[];
}

const CAPTURE: CaptureCase[] = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/google_credentials_capture.json", import.meta.url)),
);

const CONTEXT: Context = { messages: [{ role: "user", content: "Say hello", timestamp: 1 }] };
const HELLO: ScriptedTurn = { content: [{ type: "text", text: "Hello there" }] };
const PRO = getModel("google-vertex", "gemini-2.5-pro")!;

/** Every variable the ADC lookup reads, blanked so the machine's own setup cannot leak in. */
const CLEAN_ENV: Record<string, string> = {
  GOOGLE_APPLICATION_CREDENTIALS: "",
  GOOGLE_CLOUD_QUOTA_PROJECT: "",
  GOOGLE_CLOUD_API_KEY: "",
  GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES: "",
  CLOUDSDK_CONFIG: "",
  GCE_METADATA_HOST: "",
  GCE_METADATA_IP: "",
  K_SERVICE: "",
  FUNCTION_NAME: "",
  CLOUD_RUN_JOB: "",
  METADATA_SERVER_DETECTION: "none",
  GOOGLE_CLOUD_PROJECT: "proj",
  GOOGLE_CLOUD_LOCATION: "us-central1",
  AWS_REGION: "",
  AWS_DEFAULT_REGION: "",
  AWS_ACCESS_KEY_ID: "",
  AWS_SECRET_ACCESS_KEY: "",
  AWS_SESSION_TOKEN: "",
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
};

function render(text: string, home: string, base: string): string {
  return text.replaceAll("<home>", home).replaceAll("<base>", base).replaceAll("<hostport>", base.slice(7));
}

async function withHome(
  files: Record<string, string>,
  base: string,
  fn: (home: string) => Promise<void>,
): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "pi-google-creds-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const full = `${home}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, render(text, home, base));
    }
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function withServers(
  turns: number,
  fn: (google: FakeGoogle, vertex: Awaited<ReturnType<typeof startFakeProvider>>) => Promise<void>,
): Promise<void> {
  const google = startFakeGoogle();
  const vertex = await startFakeProvider(Array.from({ length: turns }, () => HELLO));
  try {
    await fn(google, vertex);
  } finally {
    await vertex.close();
    await google.close();
  }
}

/** An AWS-sourced subject token with its clock-dependent parts (date, signature) masked. */
function maskAwsSubjectToken(body: string): string {
  const form = new URLSearchParams(body);
  if (form.get("subject_token_type") !== "urn:ietf:params:aws:token-type:aws4_request") return body;
  const token = JSON.parse(decodeURIComponent(form.get("subject_token")!));
  for (const header of token.headers) {
    if (header.key === "x-amz-date") header.value = "<date>";
    if (header.key === "authorization") {
      header.value = header.value.replace(/\/\d{8}\//, "/<day>/").replace(
        /Signature=[0-9a-f]+/,
        "Signature=<sig>",
      );
    }
  }
  form.set("subject_token", JSON.stringify(token));
  return form.toString();
}

/** What must match between google-auth-library's request and ours. */
function view(request: GoogleRequest): Record<string, unknown> {
  const h = request.headers;
  const json = h["content-type"] === "application/json";
  return {
    method: request.method,
    url: request.url,
    body: json ? JSON.parse(request.body) : maskAwsSubjectToken(request.body),
    "content-type": h["content-type"],
    authorization: h.authorization,
    "metadata-flavor": h["metadata-flavor"],
    metadata: h.metadata,
    "x-aws-ec2-metadata-token": h["x-aws-ec2-metadata-token"],
    "x-aws-ec2-metadata-token-ttl-seconds": h["x-aws-ec2-metadata-token-ttl-seconds"],
  };
}

async function vertexCall(vertexUrl: string, env: Record<string, string>): Promise<AssistantMessage> {
  return await complete(PRO, CONTEXT, { env: { ...env, GOOGLE_VERTEX_BASE_URL: vertexUrl } });
}

for (const captured of CAPTURE) {
  Deno.test(`PROV-01 Vertex credentials: ${captured.name} sends google-auth-library's requests, then authorizes the Vertex call`, async () => {
    await withServers(2, async (google, vertex) => {
      await withHome(captured.files, google.url, async (home) => {
        const env: Record<string, string> = { ...CLEAN_ENV, HOME: home };
        for (const [key, value] of Object.entries(captured.env)) env[key] = render(value, home, google.url);
        const first = await vertexCall(vertex.url, env);
        assertEquals([first.stopReason, first.errorMessage], ["stop", undefined]);
        assertEquals(google.requests.map(view), captured.requests.map(view));
        const chat = vertex.requests[0];
        assertEquals(chat.headers.authorization, `Bearer ${captured.result.token}`);
        assertEquals(chat.headers["x-goog-user-project"], captured.result.quotaProjectId ?? undefined);
        // The token is kept: a second call asks no Google endpoint again.
        const second = await vertexCall(vertex.url, env);
        assertEquals([second.stopReason, second.errorMessage], ["stop", undefined]);
        assertEquals(google.requests.length, captured.requests.length);
        assertEquals(vertex.requests[1].headers.authorization, `Bearer ${captured.result.token}`);
      });
    });
  });
}

Deno.test("PROV-01 Vertex credentials: a metadata-server token near its expiry is fetched again; GOOGLE_CLOUD_QUOTA_PROJECT is sent", async () => {
  await withServers(4, async (google, vertex) => {
    await withHome({}, google.url, async (home) => {
      const env = {
        ...CLEAN_ENV,
        HOME: home,
        METADATA_SERVER_DETECTION: "assume-present",
        GCE_METADATA_HOST: google.url.slice(7),
        GOOGLE_CLOUD_QUOTA_PROJECT: "billing-proj",
      };
      google.lifetimeS = 120; // inside google-auth-library's five-minute refresh window
      for (let i = 0; i < 2; i++) {
        const result = await vertexCall(vertex.url, env);
        assertEquals([result.stopReason, result.errorMessage], ["stop", undefined]);
      }
      // A fresh token (the third fetch) is then kept for the fourth call.
      google.lifetimeS = 3599;
      for (let i = 0; i < 2; i++) {
        const result = await vertexCall(vertex.url, env);
        assertEquals([result.stopReason, result.errorMessage], ["stop", undefined]);
      }
      assertEquals(google.requests.map((r) => r.url.split("?")[0]), [
        "/computeMetadata/v1/instance/service-accounts/default/token",
        "/computeMetadata/v1/instance/service-accounts/default/token",
        "/computeMetadata/v1/instance/service-accounts/default/token",
      ]);
      assertEquals(vertex.requests.map((r) => r.headers["x-goog-user-project"]), [
        "billing-proj",
        "billing-proj",
        "billing-proj",
        "billing-proj",
      ]);
    });
  });
});

Deno.test("PROV-01 Vertex credentials: an AWS-sourced subject token equals google-auth-library's on the same clock", async () => {
  const captured = CAPTURE.filter((c) => c.name.startsWith("external-account-aws-"));
  assertEquals(captured.length, 2);
  const keys = [
    {
      accessKeyId: "AKIDFAKEGOOGLEWIF02",
      secretAccessKey: "wifSecret/envEFGH+ijkl0002",
      sessionToken: "aws-env-session-token",
    },
    {
      accessKeyId: "AKIDFAKEGOOGLEWIF01",
      secretAccessKey: "wifSecret/abcdEFGH+ijkl0001",
      sessionToken: "aws-metadata-session-token",
    },
  ];
  for (const [index, capture] of captured.entries()) {
    const form = new URLSearchParams(capture.requests.at(-1)!.body);
    const expected = form.get("subject_token")!;
    const region = /sts\.([a-z0-9-]+)\.amazonaws/.exec(decodeURIComponent(expected))![1];
    const token = await awsSubjectToken(
      keys[index],
      region,
      "https://sts.{region}.amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15",
      form.get("audience")!,
      new Date("2026-03-04T05:06:07Z"),
    );
    assertEquals(token, expected, capture.name);
  }
});

const SECRETS = [
  "file-subject-secret",
  "url-subject-secret",
  "user-refresh-secret",
  "user-client-secret",
  "wf-secret",
];

Deno.test("PROV-01 Vertex credentials: broken sources and refusals name the file and the problem, never a secret", async () => {
  await withServers(0, async (google, vertex) => {
    await withHome({ "subject.jwt": "file-subject-secret" }, google.url, async (home) => {
      const messages: string[] = [];
      const expectError = async (adc: unknown, expected: string, extra: Record<string, string> = {}) => {
        const path = `${home}/adc-${messages.length}.json`;
        await Deno.writeTextFile(path, JSON.stringify(adc));
        const result = await vertexCall(vertex.url, {
          ...CLEAN_ENV,
          HOME: home,
          GOOGLE_APPLICATION_CREDENTIALS: path,
          ...extra,
        });
        assertEquals(result.stopReason, "error");
        const message = result.errorMessage ?? "";
        messages.push(message);
        assertEquals(message, expected.replaceAll("<adc>", path));
      };
      const external = {
        type: "external_account",
        audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/x",
        subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
        token_url: `${google.url}/v1/token`,
      };
      await expectError(
        { ...external, credential_source: { file: `${home}/absent.jwt` } },
        `The subject token file ${home}/absent.jwt (credential_source of <adc>) does not exist`,
      );
      await expectError(
        {
          ...external,
          credential_source: {
            url: `${google.url}/subject-token-text`,
            format: { type: "json", subject_token_field_name: "id_token" },
          },
        },
        `The subject token from URL ${google.url}/subject-token-text (credential_source of <adc>) is not valid JSON`,
      );
      const verification = "https://sts.{region}.amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15";
      await expectError(
        {
          ...external,
          credential_source: { environment_id: "aws1", regional_cred_verification_url: verification },
        },
        'Unable to determine AWS region due to missing "options.credential_source.region_url" (<adc>)',
      );
      await expectError(
        {
          ...external,
          credential_source: { environment_id: "aws2", regional_cred_verification_url: verification },
        },
        'aws version "2" is not supported in the current build.',
      );
      await expectError(
        { ...external, credential_source: { executable: { command: "echo hi" } } },
        "The credential_source of <adc> runs an executable; set GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1 to allow it",
      );
      await expectError(
        { ...external, credential_source: { certificate: { use_default_certificate_config: true } } },
        "Google credentials of <adc> use an X.509 certificate credential_source, which is not available in this build yet",
      );
      await expectError(
        { ...external, credential_source: {} },
        "The credential_source of <adc> names no file, url, executable or AWS environment",
      );
      google.failures.set("/v1/token", {
        status: 400,
        body: { error: "invalid_grant", error_description: "The audience in ID Token does not match." },
      });
      await expectError(
        { ...external, credential_source: { file: `${home}/subject.jwt` } },
        "Google STS token exchange: invalid_grant: The audience in ID Token does not match.",
      );
      google.failures.clear();
      google.failures.set(":generateAccessToken", {
        status: 403,
        body: {
          error: {
            code: 403,
            message: "Permission 'iam.serviceAccounts.getAccessToken' denied",
            status: "PERMISSION_DENIED",
          },
        },
      });
      await expectError(
        {
          type: "impersonated_service_account",
          service_account_impersonation_url:
            `${google.url}/v1/projects/-/serviceAccounts/sa@p.iam.gserviceaccount.com:generateAccessToken`,
          source_credentials: {
            type: "authorized_user",
            client_id: "c",
            client_secret: "user-client-secret",
            refresh_token: "user-refresh-secret",
            token_uri: `${google.url}/token`,
          },
        },
        "Service account impersonation: PERMISSION_DENIED: Permission 'iam.serviceAccounts.getAccessToken' denied",
      );
      await expectError(
        {
          type: "impersonated_service_account",
          service_account_impersonation_url: "https://x/y:generateAccessToken",
        },
        "The incoming JSON object does not contain a source_credentials field (<adc>)",
      );
      await expectError(
        {
          type: "impersonated_service_account",
          service_account_impersonation_url: "https://x/y:generateAccessToken",
          source_credentials: { type: "impersonated_service_account" },
        },
        `Google credentials of type "impersonated_service_account" (source_credentials of <adc>) are not available in this build yet; use a service-account key, gcloud's application default credentials, workload identity federation or service account impersonation`,
      );
      await expectError(
        {
          type: "external_account_authorized_user",
          client_id: "c",
          client_secret: "wf-secret",
          token_url: "x",
        },
        "The incoming JSON object does not contain a refresh_token field (<adc>)",
      );
      for (const message of messages) {
        for (const secret of SECRETS) assert(!message.includes(secret), `${secret} in: ${message}`);
      }
      // No ADC file, metadata server detection by ping, and nothing answers: google-auth-library's words.
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (closed.addr as Deno.NetAddr).port;
      closed.close();
      const none = await vertexCall(vertex.url, {
        ...CLEAN_ENV,
        HOME: home,
        METADATA_SERVER_DETECTION: "ping-only",
        GCE_METADATA_HOST: `127.0.0.1:${port}`,
      });
      assertEquals(
        none.errorMessage,
        "Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.",
      );
    });
  });
});

Deno.test("PROV-01 Vertex credentials: an executable credential_source runs when allowed and its token is exchanged", async () => {
  await withServers(1, async (google, vertex) => {
    await withHome({}, google.url, async (home) => {
      const response = JSON.stringify({
        version: 1,
        success: true,
        token_type: "urn:ietf:params:oauth:token-type:jwt",
        id_token: "exec-subject-token",
        expiration_time: Math.floor(Date.now() / 1000) + 3600,
      });
      await Deno.writeTextFile(`${home}/token.sh`, `#!/bin/sh\nprintf '%s' '${response}'\n`);
      await Deno.chmod(`${home}/token.sh`, 0o755);
      const path = `${home}/adc.json`;
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          type: "external_account",
          audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/x",
          subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
          token_url: `${google.url}/v1/token`,
          credential_source: { executable: { command: `${home}/token.sh`, timeout_millis: 5000 } },
        }),
      );
      const result = await vertexCall(vertex.url, {
        ...CLEAN_ENV,
        HOME: home,
        GOOGLE_APPLICATION_CREDENTIALS: path,
        GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES: "1",
      });
      assertEquals([result.stopReason, result.errorMessage], ["stop", undefined]);
      assertEquals(new URLSearchParams(google.requests[0].body).get("subject_token"), "exec-subject-token");
      assertEquals(vertex.requests[0].headers.authorization, "Bearer sts-access-token");
    });
  });
});
