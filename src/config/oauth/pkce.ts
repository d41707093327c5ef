/**
 * PKCE (RFC 7636) verifier and S256 challenge for the browser sign-in flows, computed with WebCrypto
 * so nothing from `node:crypto` is loaded.
 *
 * @module
 */

import { toBase64 } from "../../util/bytes.ts";

/** A PKCE pair: the secret `verifier` kept by the client and its public S256 `challenge`. */
export interface PkcePair {
  /** 43 base64url characters (32 random bytes); sent only with the token exchange. */
  verifier: string;
  /** base64url(SHA-256(verifier)) without padding; sent in the authorize URL with `code_challenge_method=S256`. */
  challenge: string;
}

/** base64url without padding (RFC 4648 §5), as PKCE requires. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The S256 challenge for `verifier`: base64url(SHA-256(ASCII verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/**
 * A fresh PKCE pair, as pi-ai 1.6.0's `generatePKCE()`: 32 random bytes as the verifier, its S256
 * challenge. Every call returns a new verifier.
 */
export async function generatePkce(): Promise<PkcePair> {
  const verifier = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
  return { verifier, challenge: await pkceChallenge(verifier) };
}
