/**
 * A fake Google OAuth token endpoint for Vertex AI's Application Default Credentials:
 * `POST …/token` with a form body. A JWT-bearer grant (service account) gets
 * `fake-sa-token-<n>`, a refresh-token grant (authorized_user) `fake-user-token-<n>`; a path
 * ending `/token-401` answers 401 `unauthorized_client` as oauth2.googleapis.com does for a
 * revoked key. The request is recorded like any other, so tests check the assertion's claims
 * and signature against the test key's public half. Scripted turns are never consumed.
 *
 * @module
 */
import { registerEncoder } from "./server.ts";

let issued = 0;

registerEncoder({
  matches: (method, path) => method === "POST" && /\/token(-401)?$/.test(path),
  chunks: () => [],
  errorChunk: (message) => message,
  errorBody: (status, message) => ({ error: String(status), error_description: message }),
  authorize(request, rawBody) {
    const json = { "content-type": "application/json" };
    if (request.path.endsWith("/token-401")) {
      return {
        status: 401,
        headers: json,
        body: {
          error: "unauthorized_client",
          error_description: "Client is unauthorized to retrieve access tokens.",
        },
      };
    }
    const form = new URLSearchParams(rawBody);
    const grant = form.get("grant_type");
    if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer" && form.get("assertion")) {
      return {
        status: 200,
        headers: json,
        body: { access_token: `fake-sa-token-${++issued}`, expires_in: 3599, token_type: "Bearer" },
      };
    }
    if (grant === "refresh_token" && form.get("refresh_token") && form.get("client_secret")) {
      return {
        status: 200,
        headers: json,
        body: { access_token: `fake-user-token-${++issued}`, expires_in: 3599, token_type: "Bearer" },
      };
    }
    return { status: 400, headers: json, body: { error: "invalid_grant", error_description: "Bad Request" } };
  },
});
