/**
 * Google Vertex AI (google-vertex) end to end against the fake provider: Application Default
 * Credentials from a service-account file (an RS256 JWT whose claims and signature the test
 * checks with the key's public half, traded at the file's token_uri) and from gcloud's
 * authorized_user file at its default place, the token cache, express mode with an API key,
 * the project/location path and hosts as @google/genai builds them, and the failures (missing
 * project or location, unreadable or invalid key files, a token endpoint answering 401), none
 * of which may show a secret.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { complete } from "../../src/ai/stream.ts";
import { getModel } from "../../src/ai/models.ts";
import type { Context, Model } from "../../src/ai/types.ts";
import { vertexHost, vertexStreamUrl } from "../../src/ai/providers/google_vertex.ts";

const CONTEXT: Context = {
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: "Say hello", timestamp: 1 }],
};
const HELLO: ScriptedTurn = { content: [{ type: "text", text: "Hello there" }] };
const PRO = getModel("google-vertex", "gemini-2.5-pro")!;

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** A fresh RSA key pair; the private half as the PEM a service-account file holds. */
async function testKey(): Promise<{ pem: string; publicKey: CryptoKey }> {
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
  const b64 = btoa(String.fromCharCode(...der)).replace(/(.{64})/g, "$1\n");
  return {
    pem: `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`,
    publicKey: pair.publicKey,
  };
}

async function writeJson(dir: string, name: string, value: unknown): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, JSON.stringify(value));
  return path;
}

function serviceAccount(pem: string, tokenUri: string) {
  return {
    type: "service_account",
    project_id: "file-project",
    private_key_id: "k1",
    private_key: pem,
    client_email: "pi-test@file-project.iam.gserviceaccount.com",
    client_id: "123",
    token_uri: tokenUri,
  };
}

Deno.test("PROV-01 Vertex with a service-account file: signed JWT traded at token_uri, bearer token on the project path, token cached", async () => {
  const server = await startFakeProvider([HELLO, HELLO]);
  const dir = await Deno.makeTempDir();
  try {
    const { pem, publicKey } = await testKey();
    const file = await writeJson(dir, "sa.json", serviceAccount(pem, `${server.url}/token`));
    const env = {
      GOOGLE_APPLICATION_CREDENTIALS: file,
      GOOGLE_CLOUD_PROJECT: "my-project",
      GOOGLE_CLOUD_LOCATION: "us-central1",
      GOOGLE_VERTEX_BASE_URL: server.url,
    };
    const first = await complete(PRO, CONTEXT, { env });
    assertEquals([first.stopReason, first.api, first.content], ["stop", "google-vertex", [{
      type: "text",
      text: "Hello there",
    }]]);

    const [token, chat] = server.requests;
    assertEquals(token.path, "/token");
    // As google-auth-library's gaxios sends a URLSearchParams body.
    assertEquals(token.headers["content-type"], "application/x-www-form-urlencoded;charset=UTF-8");
    const form = new URLSearchParams(token.body as string);
    assertEquals(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
    const [header, payload, signature] = form.get("assertion")!.split(".");
    assertEquals(JSON.parse(new TextDecoder().decode(fromBase64Url(header))), { alg: "RS256" });
    const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
    assertEquals(
      [claims.iss, claims.scope, claims.aud, claims.exp - claims.iat],
      [
        "pi-test@file-project.iam.gserviceaccount.com",
        "https://www.googleapis.com/auth/cloud-platform",
        `${server.url}/token`,
        3600,
      ],
    );
    const valid = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      publicKey,
      fromBase64Url(signature),
      new TextEncoder().encode(`${header}.${payload}`),
    );
    assert(valid, "the JWT signature verifies with the service account's public key");

    assertEquals(
      chat.url,
      "/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    assertEquals(
      chat.headers.authorization,
      "Bearer fake-sa-token-" + chat.headers.authorization.split("-").pop(),
    );
    assert(chat.headers.authorization.startsWith("Bearer fake-sa-token-"));
    assertEquals(chat.headers["x-goog-api-key"], undefined);
    const body = chat.body as Record<string, unknown>;
    assertEquals(body.systemInstruction, { role: "user", parts: [{ text: "Be brief." }] });
    assertEquals(body.contents, [{ role: "user", parts: [{ text: "Say hello" }] }]);

    // The second request reuses the token: no second trip to the token endpoint.
    const second = await complete(PRO, CONTEXT, { env });
    assertEquals(second.stopReason, "stop");
    assertEquals(server.requests.map((r) => r.path.split("/").pop()), [
      "token",
      "gemini-2.5-pro:streamGenerateContent",
      "gemini-2.5-pro:streamGenerateContent",
    ]);
    assertEquals(server.requests[2].headers.authorization, chat.headers.authorization);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PROV-01 Vertex with gcloud's authorized_user file under HOME: refresh token traded, quota project header", async () => {
  const server = await startFakeProvider([HELLO]);
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/.config/gcloud`, { recursive: true });
    await writeJson(`${home}/.config/gcloud`, "application_default_credentials.json", {
      type: "authorized_user",
      client_id: "cid.apps.googleusercontent.com",
      client_secret: "user-client-secret",
      refresh_token: "1//user-refresh-token",
      quota_project_id: "billing-project",
      token_uri: `${server.url}/token`,
    });
    const env = {
      HOME: home,
      GOOGLE_APPLICATION_CREDENTIALS: "",
      CLOUDSDK_CONFIG: "",
      GCLOUD_PROJECT: "gcloud-project",
      GOOGLE_CLOUD_PROJECT: "",
      GOOGLE_CLOUD_LOCATION: "global",
      GOOGLE_VERTEX_BASE_URL: server.url,
    };
    const reply = await complete(PRO, CONTEXT, { env, apiKey: "<authenticated>" });
    assertEquals(reply.stopReason, "stop");
    const [token, chat] = server.requests;
    assertEquals(Object.fromEntries(new URLSearchParams(token.body as string)), {
      client_id: "cid.apps.googleusercontent.com",
      client_secret: "user-client-secret",
      refresh_token: "1//user-refresh-token",
      grant_type: "refresh_token",
    });
    assertEquals(
      chat.url,
      "/v1/projects/gcloud-project/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    );
    assert(chat.headers.authorization.startsWith("Bearer fake-user-token-"));
    assertEquals(chat.headers["x-goog-user-project"], "billing-project");
  } finally {
    await server.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("PROV-01 Vertex express mode: an API key goes as x-goog-api-key, no project path, no token exchange", async () => {
  const server = await startFakeProvider([HELLO]);
  try {
    const model: Model = { ...PRO, baseUrl: server.url };
    const reply = await complete(model, CONTEXT, {
      apiKey: "vertex-express-key",
      env: { GOOGLE_CLOUD_PROJECT: "p" },
    });
    assertEquals(reply.stopReason, "stop");
    assertEquals(server.requests.length, 1);
    const [chat] = server.requests;
    assertEquals(chat.url, "/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    assertEquals([chat.headers["x-goog-api-key"], chat.headers.authorization], [
      "vertex-express-key",
      undefined,
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("PROV-01 Vertex hosts and paths as @google/genai builds them", () => {
  assertEquals(vertexHost("global"), "https://aiplatform.googleapis.com");
  assertEquals(vertexHost("us"), "https://aiplatform.us.rep.googleapis.com");
  assertEquals(vertexHost("europe-west4"), "https://europe-west4-aiplatform.googleapis.com");
  const empty = {};
  assertEquals(
    vertexStreamUrl(PRO, "gemini-2.5-pro", { project: "p", location: "us-east5" }, empty),
    "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
  );
  assertEquals(
    vertexStreamUrl(PRO, "gemini-2.5-pro", { apiKey: "k" }, empty),
    "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
  );
  // A base URL naming a version is used without adding one; a publisher/model id maps to its path.
  assertEquals(
    vertexStreamUrl({ ...PRO, baseUrl: "https://proxy.example/v1beta1/" }, "anthropic/claude", {
      apiKey: "k",
    }, empty),
    "https://proxy.example/v1beta1/publishers/anthropic/models/claude:streamGenerateContent?alt=sse",
  );
});

async function errorOf(env: Record<string, string>, model: Model = PRO): Promise<string> {
  const reply = await complete(model, CONTEXT, { env });
  assertEquals(reply.stopReason, "error");
  return reply.errorMessage ?? "";
}

Deno.test("PROV-01 Vertex without a project or location fails as pi-ai 1.6.0 words it", async () => {
  assertEquals(
    await errorOf({ GOOGLE_CLOUD_PROJECT: "", GCLOUD_PROJECT: "", GOOGLE_CLOUD_LOCATION: "us-central1" }),
    "Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
  );
  assertEquals(
    await errorOf({ GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "" }),
    "Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.",
  );
});

Deno.test("PROV-01 Vertex credential failures name the file and never show a secret", async () => {
  const server = await startFakeProvider([HELLO]);
  const dir = await Deno.makeTempDir();
  try {
    const { pem } = await testKey();
    const secretLine = pem.split("\n")[1];
    const place = {
      GOOGLE_CLOUD_PROJECT: "p",
      GOOGLE_CLOUD_LOCATION: "us-central1",
      GOOGLE_VERTEX_BASE_URL: server.url,
    };

    const missing = `${dir}/nope.json`;
    assertEquals(
      await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: missing }),
      `Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: no such file ${missing}`,
    );

    const broken = `${dir}/broken.json`;
    await Deno.writeTextFile(broken, `{"type":"service_account","private_key":"${secretLine}"`);
    assertEquals(
      await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: broken }),
      `The Google credentials file ${broken} is not valid JSON`,
    );

    const badKey = await writeJson(dir, "badkey.json", serviceAccount("not a key", `${server.url}/token`));
    assertEquals(
      await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: badKey }),
      `The private_key of the Google credentials file ${badKey} is not a PKCS#8 RSA key`,
    );

    const noEmail = await writeJson(dir, "noemail.json", {
      ...serviceAccount(pem, `${server.url}/token`),
      client_email: "",
    });
    assertEquals(
      await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: noEmail }),
      `The incoming JSON object does not contain a client_email field (${noEmail})`,
    );

    const gdch = await writeJson(dir, "gdch.json", { type: "gdch_service_account", project: "x" });
    assertEquals(
      await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: gdch }),
      `Google credentials of type "gdch_service_account" (${gdch}) are not available in this build yet; use a service-account key, gcloud's application default credentials, workload identity federation or service account impersonation`,
    );

    const revoked = await writeJson(dir, "revoked.json", serviceAccount(pem, `${server.url}/token-401`));
    const message = await errorOf({ ...place, GOOGLE_APPLICATION_CREDENTIALS: revoked });
    assertEquals(
      message,
      "Google token endpoint: unauthorized_client: Client is unauthorized to retrieve access tokens.",
    );

    // No ADC file at all (empty HOME) and no metadata server: google-auth-library's words.
    assertEquals(
      await errorOf({
        ...place,
        GOOGLE_APPLICATION_CREDENTIALS: "",
        CLOUDSDK_CONFIG: "",
        HOME: dir,
        METADATA_SERVER_DETECTION: "none",
      }),
      "Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.",
    );
    // Nothing reached the model endpoint, and the one scripted turn is still queued.
    assertEquals(server.requests.every((r) => r.path.startsWith("/token")), true);
    assertEquals(server.pending(), 1);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PROV-01 Vertex HTTP errors keep the bearer token out of the message", async () => {
  const server = await startFakeProvider([{
    fault: { kind: "http", status: 403, message: "Permission denied" },
  }]);
  const dir = await Deno.makeTempDir();
  try {
    const { pem } = await testKey();
    const file = await writeJson(dir, "sa.json", serviceAccount(pem, `${server.url}/token`));
    const reply = await complete(PRO, CONTEXT, {
      env: {
        GOOGLE_APPLICATION_CREDENTIALS: file,
        GOOGLE_CLOUD_PROJECT: "p",
        GOOGLE_CLOUD_LOCATION: "us-central1",
        GOOGLE_VERTEX_BASE_URL: server.url,
      },
    });
    assertEquals(reply.stopReason, "error");
    assert(reply.errorMessage!.includes("Permission denied"), reply.errorMessage);
    assert(!reply.errorMessage!.includes("fake-sa-token"), reply.errorMessage);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
