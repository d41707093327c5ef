#!/usr/bin/env node
/**
 * Runs one of pi-ai 1.6.0's OAuth login flows (dist/auth/oauth/<name>.js) against a fake OAuth server,
 * speaking the same JSON lines as our tests/fixtures/oauth/run_flow.ts, so the requests both send can
 * be compared. The flows' fixed https endpoints are redirected to the fake server by a fetch wrapper
 * that keeps each URL's path and query and swaps the origin (what our PI_<PROVIDER>_OAUTH_URL
 * variables do); loopback URLs (the flows' own callback servers) are left alone.
 *
 * Usage (the reference's Node): node scripts/capture/oauth_flow.mjs '<json>'
 *   json: {provider, action: "login" | "refresh", credentials?, gateway?, deviceId?, abortAfterMs?}
 * Environment: PI_OAUTH_FAKE_ORIGIN (the fake server), PI_REFERENCE_DIR (the folder holding
 * node_modules; default <repo>/.cache/reference). Driven by tests/fixtures/oauth/flow_harness.ts.
 */
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const referenceDir = process.env.PI_REFERENCE_DIR ?? join(repo, ".cache", "reference");
const oauthDir = join(referenceDir, "node_modules", "@earendil-works", "pi-ai", "dist", "auth", "oauth");
const input = JSON.parse(process.argv[2]);
const origin = process.env.PI_OAUTH_FAKE_ORIGIN;

const realFetch = globalThis.fetch;
globalThis.fetch = (resource, init) => {
  const url = new URL(resource instanceof Request ? resource.url : String(resource));
  if (origin && url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
    return realFetch(`${origin}${url.pathname}${url.search}`, init);
  }
  return realFetch(resource, init);
};

const modules = {
  "github-copilot": ["github-copilot.js", (m) => m.githubCopilotOAuth],
  openai: ["openai-chatgpt.js", (m) => m.openaiChatGPTOAuth],
  openrouter: ["openrouter.js", (m) => m.openRouterOAuth],
  xai: ["xai.js", (m) => m.xaiOAuth],
  "kimi-coding": ["kimi-coding.js", (m) => m.kimiCodingOAuth],
  meta: ["meta.js", (m) => m.metaOAuth],
  radius: ["radius.js", (m) => m.createRadiusOAuth({ name: "Radius", gateway: input.gateway })],
};

function emit(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

const answers = [];
const waiting = [];
createInterface({ input: process.stdin }).on("line", (line) => {
  const next = waiting.shift();
  if (next) next(line);
  else answers.push(line);
});
function readAnswer() {
  return answers.length > 0
    ? Promise.resolve(answers.shift())
    : new Promise((resolve) => waiting.push(resolve));
}

const controller = new AbortController();
let abortTimer;
// abortAfterMs counts from the moment the user is sent to sign in (not from start-up, which varies).
function startAbortTimer() {
  if (input.abortAfterMs !== undefined && abortTimer === undefined) {
    abortTimer = setTimeout(() => controller.abort(), input.abortAfterMs);
  }
}

const interaction = {
  signal: controller.signal,
  prompt(prompt) {
    const { type, signal, ...rest } = prompt;
    emit({ event: "prompt", kind: type === "secret" ? "text" : type, ...rest });
    if (!signal) return readAnswer();
    return new Promise((resolve, reject) => {
      signal.addEventListener("abort", () => reject(new Error("prompt withdrawn")), { once: true });
      readAnswer().then(resolve, reject);
    });
  },
  notify(event) {
    if (event.type === "auth_url" || event.type === "device_code") startAbortTimer();
    if (event.type === "auth_url") emit({ event: "auth", url: event.url, instructions: event.instructions });
    else if (event.type === "progress") emit({ event: "progress", message: event.message });
    else if (event.type === "device_code") {
      const { type: _type, ...info } = event;
      emit({ event: "device_code", ...info });
    }
  },
};

try {
  const [file, pick] = modules[input.provider];
  const provider = pick(await import(pathToFileURL(join(oauthDir, file)).href));
  const result = input.action === "refresh"
    ? await provider.refresh({ type: "oauth", ...input.credentials }, controller.signal)
    : await provider.login(interaction, { getDeviceId: () => input.deviceId });
  const { type: _type, ...credentials } = result;
  emit({ event: "result", credentials });
} catch (error) {
  emit({ event: "error", message: error instanceof Error ? error.message : String(error) });
}
process.exit(0);
