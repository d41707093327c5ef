/**
 * Bedrock's AWS credential sources end to end (issue 17): each case of
 * tests/ai/fixtures/aws_credentials_capture.json (the AWS SDK's default chain, as pi-ai 1.6.0 uses
 * it, run against a fake AWS server on a fixed clock) is replayed against our chain and the fake
 * endpoints of tests/ai/fake_aws_endpoints.ts: the same requests (STS form bodies, SSO queries and
 * bearer headers, OIDC refresh bodies, container and IMDS calls), the same credentials, then a
 * Bedrock call signed with them. STS AssumeRole signatures equal the SDK's for the same request
 * and clock. Cached credentials are reused until their expiry nears; broken or missing files give
 * an error naming the file; no secret appears in any error.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { signRequest } from "../../src/ai/providers/bedrock_sigv4.ts";
import { assumeRoleRequest } from "../../src/ai/providers/bedrock_credentials_sts.ts";
import { complete } from "../../src/ai/stream.ts";
import type { AssistantMessage, Context, Model } from "../../src/ai/types.ts";
import { FAKE_AWS_CREDENTIALS } from "../support/fake_provider/bedrock.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { type AwsRequest, type FakeAws, startFakeAws } from "./fake_aws_endpoints.ts";

interface CapturedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A signed request's signed headers as sent (ports and versions are normalised elsewhere). */
  signedHeaders?: Record<string, string>;
}
interface CaptureCase {
  name: string;
  profile?: string;
  files: Record<string, string>;
  env: Record<string, string>;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  requests: CapturedRequest[];
}

const CAPTURE: CaptureCase[] = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/aws_credentials_capture.json", import.meta.url)),
);

/** Every variable the chain reads, blanked so the machine's own AWS setup cannot leak in. */
const CLEAN_ENV: Record<string, string> = Object.fromEntries(
  [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_BEDROCK_SKIP_AUTH",
    "AWS_DEFAULT_REGION",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
    "AWS_ROLE_SESSION_NAME",
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_STS",
    "AWS_ENDPOINT_URL_SSO",
    "AWS_ENDPOINT_URL_SSO_OIDC",
    "AWS_EC2_METADATA_SERVICE_ENDPOINT",
    "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE",
    "AWS_EC2_METADATA_V1_DISABLED",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "http_proxy",
    "https_proxy",
  ].map((name) => [name, ""]),
);
const BASE_ENV = { ...CLEAN_ENV, AWS_REGION: "eu-central-1", AWS_EC2_METADATA_DISABLED: "true" };

function model(url: string): Model<"bedrock-converse-stream"> {
  return {
    id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    name: "Claude Sonnet 4.5",
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl: url,
    reasoning: false,
    input: ["text"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
  };
}
const CONTEXT: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const OK_TURN = { content: [{ type: "text" as const, text: "hello" }] };

function render(text: string, home: string, base: string): string {
  return text.replaceAll("<home>", home).replaceAll("<base>", base)
    .replace(/<expiresAt\+(\d+)>/g, (_, s) => new Date(Date.now() + Number(s) * 1000).toISOString());
}

async function withHome(
  files: Record<string, string>,
  base: string,
  fn: (home: string) => Promise<void>,
): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "pi-aws-creds-" });
  try {
    await Deno.mkdir(`${home}/.aws/sso/cache`, { recursive: true });
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

/** What of a DPoP proof must match (as capture_aws_credentials.mjs's dpopView). */
function dpopView(proof: string): string {
  const [header, payload] = proof.split(".").slice(0, 2).map((part) =>
    JSON.parse(
      new TextDecoder().decode(
        Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
      ),
    )
  );
  return JSON.stringify({
    alg: header.alg,
    typ: header.typ,
    jwk: Object.keys(header.jwk),
    htm: payload.htm,
    htu: payload.htu.replace(/:\d+\//, ":<port>/"),
    claims: Object.keys(payload),
  });
}

/** What must match between the SDK's request and ours (transport and SDK telemetry aside). */
function view(request: CapturedRequest | AwsRequest): Record<string, unknown> {
  const h = request.headers;
  const signed = /SignedHeaders=(\S+),/.exec(h.authorization ?? "")?.[1].split(";")
    .filter((name) =>
      !["amz-sdk-invocation-id", "amz-sdk-request", "content-length", "x-amz-user-agent"].includes(name)
    );
  const scope = /Credential=([^,]+),/.exec(h.authorization ?? "")?.[1].replace(/\/\d{8}\//, "/<day>/");
  return {
    method: request.method,
    url: request.url,
    body: request.body,
    "content-type": h["content-type"],
    "x-amz-content-sha256": h["x-amz-content-sha256"],
    "x-amz-security-token": h["x-amz-security-token"],
    "x-amz-sso_bearer_token": h["x-amz-sso_bearer_token"],
    "x-aws-ec2-metadata-token": h["x-aws-ec2-metadata-token"],
    "x-aws-ec2-metadata-token-ttl-seconds": h["x-aws-ec2-metadata-token-ttl-seconds"],
    dpop: h.dpop && !h.dpop.startsWith("{") ? dpopView(h.dpop) : h.dpop,
    authorization: scope ? { scope, signed } : h.authorization,
  };
}

async function bedrockCall(
  bedrockUrl: string,
  env: Record<string, string>,
  profile?: string,
): Promise<AssistantMessage> {
  return await complete(model(bedrockUrl), CONTEXT, { env, ...(profile ? { profile } : {}) });
}

async function withServers(
  turns: number,
  fn: (aws: FakeAws, bedrock: Awaited<ReturnType<typeof startFakeProvider>>) => Promise<void>,
): Promise<void> {
  const aws = startFakeAws();
  const bedrock = await startFakeProvider(Array.from({ length: turns }, () => OK_TURN));
  try {
    await fn(aws, bedrock);
  } finally {
    await bedrock.close();
    await aws.close();
  }
}

for (const captured of CAPTURE) {
  Deno.test(`PROV-01 Bedrock credentials: ${captured.name} sends the AWS SDK's requests, then signs the Bedrock call`, async () => {
    await withServers(2, async (aws, bedrock) => {
      await withHome(captured.files, aws.url, async (home) => {
        const env: Record<string, string> = { ...BASE_ENV, HOME: home };
        for (const [key, value] of Object.entries(captured.env)) env[key] = render(value, home, aws.url);
        const first = await bedrockCall(bedrock.url, env, captured.profile);
        assertEquals([first.stopReason, first.errorMessage], ["stop", undefined]);
        const expected = captured.requests.map((r) => view({ ...r, url: r.url }));
        assertEquals(aws.requests.map(view), expected);
        assertEquals(bedrock.requests[0].headers["x-amz-security-token"], captured.credentials.sessionToken);
        assertEquals(captured.credentials.accessKeyId, FAKE_AWS_CREDENTIALS.accessKeyId);
        // Temporary credentials are kept: a second call asks no endpoint again.
        const second = await bedrockCall(bedrock.url, env, captured.profile);
        assertEquals([second.stopReason, second.errorMessage], ["stop", undefined]);
        assertEquals(aws.requests.length, captured.requests.length);
        if (captured.name === "login-session-refresh") {
          const cacheDir = `${home}/.aws/login/cache`;
          const [file] = [...Deno.readDirSync(cacheDir)];
          const written = JSON.parse(await Deno.readTextFile(`${cacheDir}/${file.name}`));
          assertEquals([
            written.accessToken.sessionToken,
            written.refreshToken,
            written.accessToken.accountId,
          ], [
            "login-refreshed-session-token",
            "login-new-refresh",
            "123456789012",
          ]);
        }
        if (captured.name === "sso-session-refresh") {
          const cacheDir = `${home}/.aws/sso/cache`;
          const [file] = [...Deno.readDirSync(cacheDir)];
          const written = JSON.parse(await Deno.readTextFile(`${cacheDir}/${file.name}`));
          assertEquals([written.accessToken, written.refreshToken, written.clientId], [
            "new-sso-access",
            "new-refresh",
            "oidc-client",
          ]);
        }
      });
    });
  });
}

Deno.test("PROV-01 Bedrock credentials: STS AssumeRole is signed exactly as the AWS SDK signs it on the same clock", async () => {
  for (const name of ["assume-role", "assume-role-credential-source-environment"]) {
    const request = CAPTURE.find((c) => c.name === name)!.requests[0];
    const { authorization } = request.headers;
    const headers = request.signedHeaders!;
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(headers["x-amz-date"])!;
    const signed = await signRequest(
      { method: "POST", url: new URL(`http://${headers.host}${request.url}`), headers, body: request.body },
      {
        accessKeyId: FAKE_AWS_CREDENTIALS.accessKeyId,
        secretAccessKey: FAKE_AWS_CREDENTIALS.secretAccessKey,
        ...(headers["x-amz-security-token"] ? { sessionToken: headers["x-amz-security-token"] } : {}),
      },
      /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(authorization)![1],
      "sts",
      new Date(`${date[1]}-${date[2]}-${date[3]}T${date[4]}:${date[5]}:${date[6]}Z`),
    );
    assertEquals(signed.authorization, authorization, name);
  }
  // Our own request for the first case: the SDK's body, body hash and signature on the same clock,
  // once the SDK's telemetry headers (which we do not send) are left out of both.
  const sdk = CAPTURE[0].requests[0];
  const ours = await assumeRoleRequest(
    FAKE_AWS_CREDENTIALS,
    {
      RoleArn: "arn:aws:iam::123456789012:role/pi",
      RoleSessionName: "pi-session",
      DurationSeconds: 900,
      ExternalId: "ext id!*",
    },
    "us-west-2",
    { AWS_ENDPOINT_URL_STS: "http://127.0.0.1:4566" },
    new Date("2026-03-04T05:06:07Z"),
  );
  assertEquals(ours.body, sdk.body);
  assertEquals(ours.headers["x-amz-content-sha256"], sdk.headers["x-amz-content-sha256"]);
  const sdkWithoutTelemetry = await signRequest(
    {
      method: "POST",
      url: new URL("http://127.0.0.1:4566/"),
      headers: { "content-type": sdk.headers["content-type"] },
      body: sdk.body,
    },
    FAKE_AWS_CREDENTIALS,
    "us-west-2",
    "sts",
    new Date("2026-03-04T05:06:07Z"),
    true,
  );
  assertEquals(ours.headers.authorization, sdkWithoutTelemetry.authorization);
});

Deno.test("PROV-01 Bedrock credentials: credentials about to expire are fetched again, fresh ones are reused", async () => {
  await withServers(4, async (aws, bedrock) => {
    const config =
      `[profile base]\naws_access_key_id = AKIDSOURCEPROFILE001\naws_secret_access_key = sourceSecret/abcdEFGH+ijkl0001\n` +
      `[profile role]\nrole_arn = arn:aws:iam::123456789012:role/refresh\nsource_profile = base\n`;
    await withHome({ ".aws/config": config }, aws.url, async (home) => {
      const env = { ...BASE_ENV, HOME: home, AWS_PROFILE: "role", AWS_ENDPOINT_URL_STS: aws.url };
      // Two minutes left is inside the SDK's five-minute window: each call assumes the role again.
      aws.lifetimeS = 120;
      for (let i = 0; i < 2; i++) {
        const result = await bedrockCall(bedrock.url, env);
        assertEquals([result.stopReason, result.errorMessage], ["stop", undefined]);
      }
      assertEquals(aws.requests.length, 2);
      const sessionNames = aws.requests.map((r) => new URLSearchParams(r.body).get("RoleSessionName"));
      assert(sessionNames.every((n) => /^aws-sdk-js-\d+$/.test(n ?? "")), String(sessionNames));
      aws.lifetimeS = 3600;
      for (let i = 0; i < 2; i++) await bedrockCall(bedrock.url, env);
      assertEquals(aws.requests.length, 3);
      assertEquals(bedrock.requests.length, 4);
    });
  });
});

async function errorOf(env: Record<string, string>, bedrockUrl: string, profile?: string): Promise<string> {
  const result = await bedrockCall(bedrockUrl, env, profile);
  assertEquals(result.stopReason, "error");
  return result.errorMessage ?? "";
}

const SECRETS = [
  "sourceSecret/abcdEFGH+ijkl0001",
  "revoked-token-secret",
  "eyJhbGciOi.secret-web-token",
  "cached-sso-access-secret",
  "oidc-secret",
  "container-auth-token",
];

Deno.test("PROV-01 Bedrock credentials: broken or missing files and refusals name the file and the problem, never a secret", async () => {
  await withServers(0, async (aws, bedrock) => {
    const config = [
      "[profile base]\naws_access_key_id = AKIDSOURCEPROFILE001\naws_secret_access_key = sourceSecret/abcdEFGH+ijkl0001",
      "[profile mfa]\nrole_arn = arn:aws:iam::123456789012:role/pi\nsource_profile = base\nmfa_serial = arn:aws:iam::123456789012:mfa/me",
      "[profile denied]\nrole_arn = arn:aws:iam::123456789012:role/denied\nsource_profile = base",
      "[profile loop-a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = loop-b",
      "[profile loop-b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = loop-a",
      "[profile badsource]\nrole_arn = arn:aws:iam::123456789012:role/x\ncredential_source = Laptop",
      "[profile sso]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = Dev",
      "[profile nosession]\nsso_session = missing\nsso_account_id = 1\nsso_role_name = Dev",
      "[profile incomplete]\nsso_start_url = https://x.awsapps.com/start\nsso_region = eu-west-1",
      "[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1",
      "[profile login]\nlogin_session = arn:aws:iam::123456789012:user/me",
      "[profile webfile]\nrole_arn = arn:aws:iam::123456789012:role/web\nweb_identity_token_file = <home>/absent.jwt",
    ].join("\n\n") + "\n";
    await withHome({ ".aws/config": config }, aws.url, async (home) => {
      const env = {
        ...BASE_ENV,
        HOME: home,
        AWS_ENDPOINT_URL_STS: aws.url,
        AWS_ENDPOINT_URL_SSO: aws.url,
        AWS_ENDPOINT_URL_SSO_OIDC: aws.url,
      };
      const messages: string[] = [];
      const expectError = async (profile: string, expected: string, extra: Record<string, string> = {}) => {
        const message = await errorOf({ ...env, ...extra }, bedrock.url, profile);
        messages.push(message);
        assertEquals(message, expected, profile);
      };
      await expectError(
        "mfa",
        'AWS profile "mfa" requires multi-factor authentication (mfa_serial), which pi cannot prompt for; assume the role beforehand (e.g. with aws sts assume-role) and use the temporary keys, or use credential_process',
      );
      await expectError(
        "denied",
        "STS AssumeRole for role arn:aws:iam::123456789012:role/denied failed: AccessDenied: User is not authorized to perform: sts:AssumeRole on arn:aws:iam::123456789012:role/denied",
      );
      await expectError(
        "loop-a",
        'Detected a cycle attempting to resolve credentials for AWS profile "loop-b". Profiles visited: loop-a, loop-b',
      );
      await expectError(
        "badsource",
        "Unsupported credential source in profile badsource. Got Laptop, expected EcsContainer or Ec2InstanceMetadata or Environment.",
      );
      const cache = `${home}/.aws/sso/cache/${await sha1("corp")}.json`;
      await expectError(
        "sso",
        `The SSO token cache file ${cache} of AWS profile "sso" does not exist. To refresh this SSO session run 'aws sso login' with the corresponding profile.`,
      );
      await Deno.writeTextFile(cache, '{"accessToken": "cached-sso-access-secret", ');
      await expectError(
        "sso",
        `The SSO token cache file ${cache} of AWS profile "sso" is not a JSON object. To refresh this SSO session run 'aws sso login' with the corresponding profile.`,
      );
      await Deno.writeTextFile(cache, JSON.stringify({ accessToken: "cached-sso-access-secret" }));
      await expectError(
        "sso",
        `The SSO token cache file ${cache} of AWS profile "sso" has no expiresAt. To refresh this SSO session run 'aws sso login' with the corresponding profile.`,
      );
      // Expired, and the refresh fails: the SDK's message, and no token or client secret in it.
      aws.failures.set("/token", { status: 400, body: '{"error":"invalid_grant"}' });
      await Deno.writeTextFile(
        cache,
        JSON.stringify({
          accessToken: "cached-sso-access-secret",
          expiresAt: new Date(Date.now() - 60_000).toISOString(),
          clientId: "c",
          clientSecret: "oidc-secret",
          refreshToken: "r",
        }),
      );
      await expectError(
        "sso",
        `The SSO session of AWS profile "sso" has expired. To refresh this SSO session run 'aws sso login' with the corresponding profile.`,
      );
      assertEquals(aws.requests.at(-1)?.path, "/token");
      // A token the portal no longer accepts: its words, and what to run.
      await Deno.writeTextFile(
        cache,
        JSON.stringify({
          accessToken: "revoked-token-secret",
          expiresAt: new Date(Date.now() + 3600_000).toISOString(),
        }),
      );
      await expectError(
        "sso",
        `SSO GetRoleCredentials for AWS profile "sso" failed: Session token not found or invalid. To refresh this SSO session run 'aws sso login' with the corresponding profile.`,
      );
      assertEquals(aws.requests.at(-1)?.headers["x-amz-sso_bearer_token"], "revoked-token-secret");
      await expectError(
        "nosession",
        `AWS profile "nosession" names sso_session "missing", but ${home}/.aws/config has no [sso-session missing] section`,
      );
      await expectError(
        "incomplete",
        'AWS profile "incomplete" is configured with invalid SSO credentials: sso_account_id, sso_role_name missing',
      );
      await expectError(
        "login",
        `The AWS login token cache file ${home}/.aws/login/cache/${await sha256(
          "arn:aws:iam::123456789012:user/me",
        )}.json does not exist; please re-authenticate using aws login`,
      );
      await expectError(
        "webfile",
        `The web identity token file ${home}/absent.jwt (web_identity_token_file of AWS profile "webfile") does not exist`,
      );
      // Web identity from the environment: STS refuses the token; the token is not repeated.
      await Deno.writeTextFile(`${home}/token.jwt`, "eyJhbGciOi.secret-web-token.expired");
      const webEnv = {
        AWS_WEB_IDENTITY_TOKEN_FILE: `${home}/token.jwt`,
        AWS_ROLE_ARN: "arn:aws:iam::1:role/web",
      };
      await expectError(
        "",
        "STS AssumeRoleWithWebIdentity for role arn:aws:iam::1:role/web failed: ExpiredTokenException: Token expired: current date/time is after the token's exp",
        webEnv,
      );
      // Container endpoints: only HTTPS, loopback or the ECS/EKS hosts; a missing token file is named.
      await expectError(
        "",
        "Container credentials URL http://169.254.169.254 not accepted: it must be HTTPS, a loopback address or the ECS/EKS container host",
        { AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://169.254.169.254/creds" },
      );
      await expectError(
        "",
        `Could not read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ${home}/none: NotFound`,
        {
          AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/creds`,
          AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: `${home}/none`,
        },
      );
      aws.failures.set("/creds", { status: 403, body: '{"Code":"AccessDenied"}' });
      await expectError(
        "",
        `Container credentials endpoint ${aws.url}/creds answered HTTP 403`,
        {
          AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/creds`,
          AWS_CONTAINER_AUTHORIZATION_TOKEN: "container-auth-token",
        },
      );
      assertEquals(aws.requests.at(-1)?.headers.authorization, "container-auth-token");
      // A config file that cannot be read (here a folder) is named with the reason.
      await Deno.mkdir(`${home}/config-dir`);
      const unreadable = await errorOf(
        { ...env, AWS_CONFIG_FILE: `${home}/config-dir` },
        bedrock.url,
        "base",
      );
      assert(unreadable.startsWith(`Could not read AWS file ${home}/config-dir: `), unreadable);
      for (const message of messages) {
        for (const secret of SECRETS) assert(!message.includes(secret), `${secret} in: ${message}`);
      }
    });
  });
});

Deno.test("PROV-01 Bedrock credentials: with nothing configured and no metadata service, the error says what to set", async () => {
  await withServers(0, async (_aws, bedrock) => {
    // A port nothing listens on: the instance metadata probe finds no service.
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    await withHome({ ".aws/config": "[default]\nregion = eu-west-1\n" }, "", async (home) => {
      const message = await errorOf(
        {
          ...BASE_ENV,
          HOME: home,
          AWS_EC2_METADATA_DISABLED: "",
          AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${port}`,
        },
        bedrock.url,
      );
      assertEquals(
        message,
        "No AWS credentials for Amazon Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK",
      );
    });
  });
});

Deno.test("PROV-01 Bedrock credentials: a default profile with only a region lets the chain reach web identity", async () => {
  await withServers(1, async (aws, bedrock) => {
    await withHome(
      { ".aws/config": "[default]\nregion = eu-west-1\n", "token.jwt": "eyJ.web\n" },
      aws.url,
      async (home) => {
        const result = await bedrockCall(bedrock.url, {
          ...BASE_ENV,
          HOME: home,
          AWS_ENDPOINT_URL_STS: aws.url,
          AWS_WEB_IDENTITY_TOKEN_FILE: `${home}/token.jwt`,
          AWS_ROLE_ARN: "arn:aws:iam::123456789012:role/eks",
        });
        assertEquals([result.stopReason, result.errorMessage], ["stop", undefined]);
        const body = new URLSearchParams(aws.requests[0].body);
        assertEquals([body.get("Action"), body.get("WebIdentityToken")], [
          "AssumeRoleWithWebIdentity",
          "eyJ.web",
        ]);
        assert(/^aws-sdk-js-session-\d+$/.test(body.get("RoleSessionName") ?? ""));
      },
    );
  });
});

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
