/**
 * A fake of the Google endpoints Vertex's credentials talk to, on 127.0.0.1: the OAuth token
 * endpoint (`/token`, `/v1/oauthtoken`), the STS token exchange (`/v1/token`), IAM Credentials
 * `generateAccessToken`, subject-token URLs, the metadata server (`/computeMetadata/v1/…`, with
 * `Metadata-Flavor: Google`) and an EC2 instance metadata service (`/latest/…`). Answers mirror tests/ai/fixtures/capture_google_credentials.mjs's
 * server; token lifetimes are settable, and named paths can be made to fail.
 */

import { type CloudRequest, serveRecording } from "./fake_cloud_server.ts";

/** A request the fake saw. */
export type GoogleRequest = CloudRequest;

/** The running fake. */
export interface FakeGoogle {
  url: string;
  requests: GoogleRequest[];
  /** Lifetime of the tokens handed out (seconds). */
  lifetimeS: number;
  /** Answers whose path contains the key with this status and JSON body. */
  failures: Map<string, { status: number; body: unknown }>;
  close(): Promise<void>;
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeGoogle(): FakeGoogle {
  const failures = new Map<string, { status: number; body: unknown }>();
  const fake: Omit<FakeGoogle, "url" | "requests" | "close"> = { lifetimeS: 3599, failures };
  const server = serveRecording(({ path }) => {
    for (const [key, failure] of failures) {
      if (path.includes(key)) return Response.json(failure.body, { status: failure.status });
    }
    if (path.startsWith("/computeMetadata/v1/")) {
      const flavor = { "metadata-flavor": "Google" };
      if (path === "/computeMetadata/v1/instance") return new Response("", { headers: flavor });
      return Response.json({
        access_token: "gce-access-token",
        expires_in: fake.lifetimeS,
        token_type: "Bearer",
      }, {
        headers: flavor,
      });
    }
    if (path === "/token" || path === "/v1/oauthtoken") {
      return Response.json({
        access_token: "source-access-token",
        expires_in: fake.lifetimeS,
        token_type: "Bearer",
      });
    }
    if (path === "/v1/token") {
      return Response.json({
        access_token: "sts-access-token",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: fake.lifetimeS,
      });
    }
    if (path.endsWith(":generateAccessToken")) {
      const expireTime = new Date(Date.now() + fake.lifetimeS * 1000).toISOString().replace(
        /\.\d{3}Z$/,
        "Z",
      );
      return Response.json({ accessToken: "impersonated-access-token", expireTime });
    }
    // An EC2 instance metadata service for AWS-sourced subject tokens.
    if (path === "/latest/api/token") return new Response("imds-v2-session-token");
    if (path === "/latest/meta-data/placement/availability-zone") return new Response("us-east-2b");
    if (path === "/latest/meta-data/iam/security-credentials") return new Response("gcp-role");
    if (path === "/latest/meta-data/iam/security-credentials/gcp-role") {
      return Response.json({
        Code: "Success",
        AccessKeyId: "AKIDFAKEGOOGLEWIF01",
        SecretAccessKey: "wifSecret/abcdEFGH+ijkl0001",
        Token: "aws-metadata-session-token",
      });
    }
    if (path === "/subject-token-json") return Response.json({ id_token: "url-subject-token" });
    if (path === "/subject-token-text") return new Response("url-subject-token-text");
    return Response.json({}, { status: 404 });
  });
  return Object.assign(fake, { url: server.url, requests: server.requests, close: server.close });
}
