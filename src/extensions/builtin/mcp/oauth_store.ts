/**
 * `mcp-auth.json` in the agent folder: per MCP server, the OAuth state 1.6.0 keeps (discovered
 * servers, the registered client, the pending sign-in's `state` and PKCE verifier, the tokens and when
 * they expire), keyed `mcp__<server>|<url>` so servers sharing a URL keep separate accounts. The file
 * is created 0600 in a 0700 folder and changed only under its lock (the auth.json backend); token
 * refreshes also take a per-server lock file, so two pi processes never spend one rotating refresh
 * token twice.
 *
 * @module
 */
import { FileAuthStorageBackend } from "../../../config/auth_storage_backend.ts";
import { lockFile } from "../../../config/file_lock.ts";
import { join } from "../../../util/path.ts";
import { mcpNamespace } from "./naming.ts";

/** Token response fields pi keeps, in the order the server's answer is stored. */
export interface McpOAuthTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
  id_token?: string;
  [key: string]: unknown;
}

/** A registered (or configured) OAuth client. */
export interface McpOAuthClient {
  client_id: string;
  client_secret?: string;
  redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  [key: string]: unknown;
}

/** What discovery found, cached so sign-ins and refreshes skip it. */
export interface McpOAuthDiscovery {
  authorizationServerUrl: string;
  authorizationServerMetadata?: Record<string, unknown>;
  resourceMetadata?: Record<string, unknown>;
  resourceMetadataUrl?: string;
}

/** One server's entry in `mcp-auth.json` (1.6.0's layout). */
export interface McpOAuthState {
  serverUrl: string;
  discovery?: McpOAuthDiscovery;
  clientInformation?: McpOAuthClient;
  oauthState?: string;
  codeVerifier?: string;
  tokens?: McpOAuthTokens;
  /** Epoch milliseconds. */
  tokensExpireAt?: number;
}

/** One server's view of the store. */
export interface McpOAuthServerStore {
  load(): McpOAuthState | undefined;
  save(state: McpOAuthState): void;
  /** Runs `fn` holding the server's refresh lock (this process and others). */
  withRefreshLock<T>(fn: () => Promise<T>): Promise<T>;
}

type States = Record<string, McpOAuthState>;

function parseStates(content: string | undefined): States {
  if (!content?.trim()) return {};
  const parsed = JSON.parse(content);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {};
}

function serialize(states: States): string {
  return `${JSON.stringify(states, null, 2)}\n`;
}

/** The key by name and URL, and the key by URL alone that older versions wrote. */
function storeKeys(name: string, serverUrl: string): { key: string; legacyKey: string } {
  const legacyKey = String(new URL(serverUrl));
  return { key: `${mcpNamespace(name)}|${legacyKey}`, legacyKey };
}

/** A refresh lock its holder stopped renewing (the process was killed) is taken over after this. */
const REFRESH_LOCK_STALE_MS = 20_000;
const REFRESH_LOCK_RETRY_MS = 100;
/** Longer than a stale lock lives. */
const REFRESH_LOCK_WAIT_MS = 25_000;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The OAuth state of every MCP server, in `<agentDir>/mcp-auth.json`. */
export class McpOAuthCredentialStore {
  readonly path: string;
  #backend: FileAuthStorageBackend;
  #agentDir: string;
  /** Refreshes in this process, per key: the lock file only keeps other processes out. */
  #inProcess = new Map<string, Promise<unknown>>();

  constructor(agentDir: string) {
    this.#agentDir = agentDir;
    this.path = join(agentDir, "mcp-auth.json");
    this.#backend = new FileAuthStorageBackend(this.path);
  }

  /** The store of one server; its first load takes over state stored under the legacy URL key. */
  forServer(name: string, serverUrl: string): McpOAuthServerStore {
    const { key, legacyKey } = storeKeys(name, serverUrl);
    return {
      load: () =>
        this.#backend.withLock((current) => {
          const states = parseStates(current);
          if (states[key] || !states[legacyKey]) return { result: states[key] };
          states[key] = states[legacyKey];
          delete states[legacyKey];
          return { result: states[key], next: serialize(states) };
        }),
      save: (state) =>
        this.#backend.withLock((current) => {
          const states = parseStates(current);
          states[key] = state;
          return { result: undefined, next: serialize(states) };
        }),
      withRefreshLock: (fn) => this.#withRefreshLock(key, fn),
    };
  }

  /** The stored tokens of a server (without taking over legacy state). */
  tokens(name: string, serverUrl: string): McpOAuthTokens | undefined {
    const { key, legacyKey } = storeKeys(name, serverUrl);
    const states = this.#backend.withLock((current) => ({ result: parseStates(current) }));
    return (states[key] ?? states[legacyKey])?.tokens;
  }

  /** Deletes a server's state; whether there was any. */
  remove(name: string, serverUrl: string): boolean {
    const { key, legacyKey } = storeKeys(name, serverUrl);
    return this.#backend.withLock((current) => {
      const states = parseStates(current);
      const stored = key in states ? key : legacyKey in states ? legacyKey : undefined;
      if (!stored) return { result: false };
      delete states[stored];
      return { result: true, next: serialize(states) };
    });
  }

  async #withRefreshLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#inProcess.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      Deno.mkdirSync(this.#agentDir, { recursive: true, mode: 0o700 });
      const release = await lockFile(
        join(this.#agentDir, `mcp-auth-refresh-${(await sha256Hex(key)).slice(0, 16)}`),
        {
          stale: REFRESH_LOCK_STALE_MS,
          retries: REFRESH_LOCK_WAIT_MS / REFRESH_LOCK_RETRY_MS,
          factor: 1,
          minTimeout: REFRESH_LOCK_RETRY_MS,
          maxTimeout: REFRESH_LOCK_RETRY_MS,
          // A lost lock at worst lets two refreshes overlap.
          onCompromised: () => {},
        },
      );
      try {
        return await fn();
      } finally {
        await release().catch(() => undefined);
      }
    });
    this.#inProcess.set(key, run);
    try {
      return await run;
    } finally {
      if (this.#inProcess.get(key) === run) this.#inProcess.delete(key);
    }
  }
}
