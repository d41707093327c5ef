/**
 * A fake of the AWS endpoints the credential chain talks to, on 127.0.0.1: STS (AssumeRole, whose
 * SigV4 signature is recomputed with the source keys it knows, and AssumeRoleWithWebIdentity),
 * IAM Identity Center (GetRoleCredentials, SSO OIDC CreateToken), a container credentials
 * endpoint and the EC2 instance metadata service. Every source hands out the identity the fake
 * bedrock-runtime accepts ({@link FAKE_AWS_CREDENTIALS}) with a session token naming the source,
 * so a Bedrock call shows where its credentials came from. Answers mirror
 * tests/ai/fixtures/capture_aws_credentials.mjs's server.
 */
import { expectedSignature, FAKE_AWS_CREDENTIALS } from "../support/fake_provider/bedrock.ts";
import { type CloudRequest, serveRecording } from "./fake_cloud_server.ts";

/** Keys the fake STS accepts as the source of an AssumeRole. */
export const SOURCE_KEYS: Record<string, string> = {
  [FAKE_AWS_CREDENTIALS.accessKeyId]: FAKE_AWS_CREDENTIALS.secretAccessKey,
  AKIDSOURCEPROFILE001: "sourceSecret/abcdEFGH+ijkl0001",
};

/** A request the fake saw, with its raw body text. */
export type AwsRequest = CloudRequest;

/** The running fake. */
export interface FakeAws {
  url: string;
  requests: AwsRequest[];
  /** Lifetime of the credentials handed out (seconds; default 3600). */
  lifetimeS: number;
  /** Forces a status on the next answers whose path or STS action contains the key. */
  failures: Map<string, { status: number; body: string }>;
  close(): Promise<void>;
}

const STS_XML = (action: string, token: string, expiration: string) =>
  `<${action}Response xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><${action}Result><Credentials>` +
  `<AccessKeyId>${FAKE_AWS_CREDENTIALS.accessKeyId}</AccessKeyId>` +
  `<SecretAccessKey>${FAKE_AWS_CREDENTIALS.secretAccessKey}</SecretAccessKey>` +
  `<SessionToken>${token}</SessionToken><Expiration>${expiration}</Expiration></Credentials>` +
  `<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/pi/s</Arn><AssumedRoleId>AROA:s</AssumedRoleId>` +
  `</AssumedRoleUser></${action}Result></${action}Response>`;

function stsError(code: string, message: string): Response {
  return new Response(
    `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code>` +
      `<Message>${message}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`,
    { status: 403, headers: { "content-type": "text/xml" } },
  );
}

function verifyStsSignature(request: AwsRequest): Response | undefined {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\S+)\/aws4_request, SignedHeaders=(\S+), Signature=([0-9a-f]+)$/
      .exec(request.headers.authorization ?? "");
  if (!match) return stsError("MissingAuthenticationToken", "Request is missing Authentication Token");
  const [, keyId, scope, signed, signature] = match;
  const secret = SOURCE_KEYS[keyId];
  if (!secret) {
    return stsError("InvalidClientTokenId", "The security token included in the request is invalid.");
  }
  const expected = expectedSignature(
    request,
    request.body,
    signed.split(";"),
    `${scope}/aws4_request`,
    secret,
  );
  if (expected !== signature || !scope.endsWith("/sts")) {
    return stsError(
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided.",
    );
  }
  return undefined;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** Checks a DPoP proof's ES256 signature against the key in its own header, and its claims. */
async function verifyDpop(proof: string, path: string): Promise<Response | undefined> {
  const deny = (message: string) => Response.json({ error: "INVALID_DPOP", message }, { status: 400 });
  const [header, payload, signature] = proof.split(".");
  if (!signature) return deny("missing DPoP proof");
  const head = JSON.parse(new TextDecoder().decode(fromBase64Url(header)));
  const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
  const key = await crypto.subtle.importKey("jwk", head.jwk, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromBase64Url(signature),
    new TextEncoder().encode(`${header}.${payload}`),
  );
  if (!valid || head.alg !== "ES256" || claims.htm !== "POST" || !String(claims.htu).endsWith(path)) {
    return deny("DPoP proof invalid");
  }
  return undefined;
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeAws(): FakeAws {
  const failures = new Map<string, { status: number; body: string }>();
  const fake: Omit<FakeAws, "url" | "requests" | "close"> = { lifetimeS: 3600, failures };
  const server = serveRecording(async (request) => {
    const { headers, body } = request;
    const url = new URL(request.url, "http://fake");
    const expiry = new Date(Date.now() + fake.lifetimeS * 1000);
    const action = request.method === "POST" && url.pathname === "/"
      ? new URLSearchParams(body).get("Action")
      : null;
    for (const [key, failure] of failures) {
      if (url.pathname.includes(key) || action === key) {
        return new Response(failure.body, { status: failure.status });
      }
    }
    if (action === "AssumeRole") {
      const denied = verifyStsSignature(request);
      if (denied) return denied;
      const params = new URLSearchParams(body);
      if (params.get("RoleArn")!.includes("denied")) {
        return stsError(
          "AccessDenied",
          `User is not authorized to perform: sts:AssumeRole on ${params.get("RoleArn")}`,
        );
      }
      return new Response(STS_XML(action, "sts-session-token", expiry.toISOString()), {
        headers: { "content-type": "text/xml" },
      });
    }
    if (action === "AssumeRoleWithWebIdentity") {
      const token = new URLSearchParams(body).get("WebIdentityToken") ?? "";
      if (token.includes("expired")) {
        return stsError("ExpiredTokenException", "Token expired: current date/time is after the token's exp");
      }
      return new Response(STS_XML(action, "sts-session-token", expiry.toISOString()), {
        headers: { "content-type": "text/xml" },
      });
    }
    if (url.pathname === "/federation/credentials") {
      if (!headers["x-amz-sso_bearer_token"]?.includes("sso-access")) {
        return Response.json({ message: "Session token not found or invalid" }, {
          status: 401,
          headers: { "x-amzn-errortype": "UnauthorizedException" },
        });
      }
      return Response.json({
        roleCredentials: {
          accessKeyId: FAKE_AWS_CREDENTIALS.accessKeyId,
          secretAccessKey: FAKE_AWS_CREDENTIALS.secretAccessKey,
          sessionToken: "sso-session-token",
          expiration: expiry.getTime(),
        },
      });
    }
    if (url.pathname === "/v1/token") {
      const proof = await verifyDpop(headers.dpop ?? "", `${new URL(request.url, "http://x").pathname}`);
      if (proof) return proof;
      return Response.json({
        accessToken: {
          accessKeyId: FAKE_AWS_CREDENTIALS.accessKeyId,
          secretAccessKey: FAKE_AWS_CREDENTIALS.secretAccessKey,
          sessionToken: "login-refreshed-session-token",
        },
        tokenType: "aws_sigv4",
        expiresIn: 900,
        refreshToken: "login-new-refresh",
      });
    }
    if (url.pathname === "/token") {
      return Response.json({
        accessToken: "new-sso-access",
        expiresIn: 28800,
        refreshToken: "new-refresh",
        tokenType: "Bearer",
      });
    }
    if (url.pathname === "/latest/api/token") return new Response("imds-session-token");
    if (url.pathname === "/latest/meta-data/iam/security-credentials/") {
      return new Response("pi-instance-role\n");
    }
    return Response.json({
      Code: "Success",
      AccessKeyId: FAKE_AWS_CREDENTIALS.accessKeyId,
      SecretAccessKey: FAKE_AWS_CREDENTIALS.secretAccessKey,
      Token: "remote-session-token",
      Expiration: expiry.toISOString().replace(/\.\d{3}Z$/, "Z"),
    });
  });
  return Object.assign(fake, { url: server.url, requests: server.requests, close: server.close });
}
