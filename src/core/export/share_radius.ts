/**
 * Sharing a session as a Radius artifact, pi 1.6.0's first `/share` destination: the current branch
 * as JSONL (a fresh header, the entries re-chained, and a trailing `pi.share` custom entry holding
 * the system prompt and the tool schemas the viewer shows) is POSTed to
 * `<gateway>/v1/artifacts?visibility=organization&title=Pi+session` with the Radius login's token.
 * The answer's `artifact.canonical_url` is the link shown to the user.
 *
 * Without a Radius credential this answers `undefined`, so the caller can fall back to the gist
 * (`sessionShareDestination: "auto"`) or say that Radius is not configured (`"radius"`).
 *
 * The gateway is `$PI_RADIUS_GATEWAY` when set (1.6.0's override for the Radius gateway, which its
 * `/share` does not honour), else `https://radius.pi.dev`.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { normalizeRadiusGatewayUrl } from "../../config/oauth/radius.ts";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../../session/entries.ts";
import type { SessionManager } from "../../session/session_manager.ts";
import { ShareError } from "./share_gist.ts";

/** The gateway pi signs in to when `PI_RADIUS_GATEWAY` is not set (pi-ai 1.6.0's default). */
export const DEFAULT_RADIUS_GATEWAY = "https://radius.pi.dev";

/** The provider id of the Radius login in auth.json. */
export const RADIUS_PROVIDER_ID = "radius";

/** The custom entry type of the trailing entry carrying the system prompt and tools. */
export const SHARE_CUSTOM_TYPE = "pi.share";

/** The Radius gateway origin: `$PI_RADIUS_GATEWAY` or {@link DEFAULT_RADIUS_GATEWAY}, normalised. */
export function radiusGatewayUrl(): string {
  return normalizeRadiusGatewayUrl(readEnv("PI_RADIUS_GATEWAY") || DEFAULT_RADIUS_GATEWAY);
}

/** A tool as the share's trailing entry lists it. */
export interface ShareTool {
  /** The tool's name. */
  name: string;
  /** What the model is told the tool does. */
  description: string;
  /** Its JSON schema. */
  parameters: unknown;
}

/** The part of a session the share export reads. */
export interface RadiusShareableSession {
  /** The entries of the current branch, the session id and cwd. */
  readonly sessionManager: Pick<SessionManager, "getSessionId" | "getCwd" | "getBranch">;
  /** The system prompt and the active tools. */
  readonly state: { readonly systemPrompt: string; readonly tools: readonly ShareTool[] };
  /** Where the Radius token comes from. */
  readonly modelRuntime: {
    getAuth(
      provider: string,
    ): Promise<{ auth: { apiKey?: string; headers?: Record<string, string> } } | undefined>;
  };
}

/**
 * The current branch as JSONL with the `pi.share` entry at the end (1.6.0's
 * `serializeSessionBranch` with `createShareTrailingEntries`): a header with a new timestamp, each
 * entry of the branch with its `parentId` chained to the one before, then the share entry (a new
 * 8-character id, the same timestamp as the header).
 */
export function serializeShareJsonl(session: Omit<RadiusShareableSession, "modelRuntime">): string {
  const manager = session.sessionManager;
  const timestamp = new Date().toISOString();
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: manager.getSessionId(),
    timestamp,
    cwd: manager.getCwd(),
  };
  const lines = [JSON.stringify(header)];
  let parentId: string | null = null;
  for (const entry of manager.getBranch()) {
    lines.push(JSON.stringify({ ...entry, parentId }));
    parentId = entry.id;
  }
  lines.push(JSON.stringify({
    type: "custom",
    customType: SHARE_CUSTOM_TYPE,
    id: crypto.randomUUID().slice(0, 8),
    parentId,
    timestamp,
    data: {
      systemPrompt: session.state.systemPrompt,
      tools: session.state.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      })),
    },
  }));
  return `${lines.join("\n")}\n`;
}

/**
 * The bearer token of the Radius login: the credential's key, or the token of an `Authorization:
 * Bearer …` header (1.6.0's `getAuthCredential`). Undefined without a login.
 */
export async function radiusToken(
  session: Pick<RadiusShareableSession, "modelRuntime">,
): Promise<string | undefined> {
  const result = await session.modelRuntime.getAuth(RADIUS_PROVIDER_ID);
  if (result?.auth.apiKey) return result.auth.apiKey;
  const header = Object.entries(result?.auth.headers ?? {})
    .find(([name]) => name.toLowerCase() === "authorization")?.[1];
  return typeof header === "string" ? /^Bearer\s+(.+)$/iu.exec(header)?.[1] : undefined;
}

/** Options of {@link uploadRadiusArtifact}. */
export interface RadiusUploadOptions {
  /** The gateway origin; default {@link radiusGatewayUrl}. */
  gatewayUrl?: string;
  /** Stops the upload (the user cancelled). */
  signal?: AbortSignal;
}

interface ArtifactReply {
  artifact?: { canonical_url?: string };
  error?: string;
}

/**
 * POSTs `body` (session JSONL) as an organization-visible artifact titled "Pi session"; resolves
 * its canonical URL. A failed request or reply throws a {@link ShareError} with 1.6.0's text
 * (`Failed to upload Radius artifact: <the reply's error, or the status text, or the status>`).
 */
export async function uploadRadiusArtifact(
  body: string,
  token: string,
  options: RadiusUploadOptions = {},
): Promise<string> {
  const bytes = new TextEncoder().encode(body);
  const url = new URL("/v1/artifacts", options.gatewayUrl ?? radiusGatewayUrl());
  url.searchParams.set("visibility", "organization");
  url.searchParams.set("title", "Pi session");
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/x-ndjson",
        "Content-Length": String(bytes.byteLength),
      },
      body: bytes,
      signal: options.signal,
    });
  } catch (error) {
    throw new ShareError(
      `Failed to upload Radius artifact: ${error instanceof Error ? error.message : "Unknown error"}`,
    );
  }
  const json = await response.json().catch(() => null) as ArtifactReply | null;
  const shareUrl = json?.artifact?.canonical_url;
  if (!response.ok || !json?.artifact || typeof shareUrl !== "string") {
    throw new ShareError(
      `Failed to upload Radius artifact: ${json?.error || response.statusText || response.status}`,
    );
  }
  return shareUrl;
}
