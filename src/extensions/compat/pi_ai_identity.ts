/**
 * 1.6.0 pi-ai's client identity helpers for extensions: the `User-Agent` pi sends and the
 * attribution headers some providers use to credit the calling app (OpenRouter, NVIDIA NIM,
 * OpenCode). Under Deno the detailed `User-Agent` names Deno as the runtime, where 1.6.0 names
 * Node.js or Bun.
 *
 * @module
 */
import { PI_AI_VERSION } from "./pi_ai_constants.ts";

/** `"detailed"` (`pi/<version> (<platform>; <runtime>/<version>; <arch>)`), `"short"` (`pi`) or a custom value. */
export type UserAgentMode = "short" | "detailed" | { custom: string };

/** Who requests are attributed to. */
export interface ClientAttribution {
  /** App name: OpenRouter's app title, NVIDIA's invoke origin (capitalized), OpenCode's client. */
  name: string;
  /** App URL: OpenRouter's `HTTP-Referer`. */
  url: string;
  /** App categories, e.g. `["cli-agent"]`: OpenRouter's `X-OpenRouter-Categories`. */
  categories?: string[];
}

/** How requests identify the calling app; absent fields take pi-ai's defaults. */
export interface ClientIdentity {
  /** Default `"detailed"`. */
  userAgent?: UserAgentMode;
  /** Attribution headers; absent or null sends none (null also clears a merged one). */
  attribution?: ClientAttribution | null;
  /** The version in the detailed `User-Agent`; default pi-ai's. */
  version?: string;
}

/** The provider and endpoint a request goes to. */
export interface ClientIdentityTarget {
  /** Provider id. */
  readonly provider: string;
  /** The request's base URL. */
  readonly baseUrl: string;
}

/** pi's own attribution. */
export const PI_ATTRIBUTION: ClientAttribution = {
  name: "pi",
  url: "https://pi.dev",
  categories: ["cli-agent"],
};

const NVIDIA_NIM_HOST = "integrate.api.nvidia.com";
const OPENCODE_HOST = "opencode.ai";

/** Merges identities field by field: later sources win, undefined fields are skipped. */
export function mergeClientIdentity(...sources: (ClientIdentity | undefined)[]): ClientIdentity | undefined {
  let merged: ClientIdentity | undefined;
  for (const source of sources) {
    if (!source) continue;
    merged = { ...merged };
    if (source.userAgent !== undefined) merged.userAgent = source.userAgent;
    if (source.attribution !== undefined) merged.attribution = source.attribution;
    if (source.version !== undefined) merged.version = source.version;
  }
  return merged;
}

/** The version in the detailed `User-Agent`. */
export function getClientVersion(identity?: ClientIdentity): string {
  return identity?.version ?? PI_AI_VERSION;
}

// Node's names for the platform and architecture, which 1.6.0's `User-Agent` carries.
const PLATFORMS: Record<string, string> = { windows: "win32" };
const ARCHES: Record<string, string> = { x86_64: "x64", aarch64: "arm64" };

/** The `User-Agent` value of an identity. */
export function formatUserAgent(identity?: ClientIdentity): string {
  const mode = identity?.userAgent ?? "detailed";
  if (typeof mode === "object") return mode.custom;
  if (mode === "short") return "pi";
  const { os, arch } = Deno.build;
  return `pi/${getClientVersion(identity)} (${PLATFORMS[os] ?? os}; deno/${Deno.version.deno}; ${
    ARCHES[arch] ?? arch
  })`;
}

function matchesHost(baseUrl: string, host: string): boolean {
  try {
    return new URL(baseUrl).hostname === host;
  } catch {
    return false;
  }
}

function isOpenCode(target: ClientIdentityTarget): boolean {
  return target.provider === "opencode" || target.provider === "opencode-go" ||
    matchesHost(target.baseUrl, OPENCODE_HOST);
}

/** The provider attribution headers of an identity for a target; empty when attribution is off. */
export function getAttributionHeaders(
  target: ClientIdentityTarget,
  identity?: ClientIdentity,
): Record<string, string> {
  const attribution = identity?.attribution;
  if (!attribution) return {};
  const { name, url, categories } = attribution;
  if (target.provider === "openrouter" || target.baseUrl.includes("openrouter.ai")) {
    return {
      "HTTP-Referer": url,
      "X-OpenRouter-Title": name,
      ...(categories === undefined || categories.length === 0
        ? {}
        : { "X-OpenRouter-Categories": categories.join(",") }),
    };
  }
  if (target.provider === "nvidia" || matchesHost(target.baseUrl, NVIDIA_NIM_HOST)) {
    return { "X-BILLING-INVOKE-ORIGIN": name.charAt(0).toUpperCase() + name.slice(1) };
  }
  if (isOpenCode(target)) return { "x-opencode-client": name };
  return {};
}

/** OpenCode's per-conversation routing header; undefined without a session or for other targets. */
export function getOpenCodeSessionHeaders(
  target: ClientIdentityTarget,
  sessionId: string | undefined,
): Record<string, string> | undefined {
  return sessionId && isOpenCode(target) ? { "x-opencode-session": sessionId } : undefined;
}

/** The default headers an identity adds to a request: `User-Agent` and attribution. */
export function getIdentityHeaders(
  target: ClientIdentityTarget,
  identity?: ClientIdentity,
): Record<string, string> {
  return { "User-Agent": formatUserAgent(identity), ...getAttributionHeaders(target, identity) };
}
