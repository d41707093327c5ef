/**
 * Headless Chromium for tests of the HTML export: finds Debian's `chromium-headless-shell` that
 * .ci/run unpacks into .cache/tools (or a `chromium`/`chromium-headless-shell` on PATH), and
 * drives one page over the DevTools protocol: load a URL, evaluate expressions, click, and list
 * every request the page made.
 *
 * @module
 */
import { join } from "../../src/util/path.ts";

const TOOLS_ROOT = new URL("../../.cache/tools/root/", import.meta.url).pathname;

/** How to start the browser. */
export interface ChromiumCommand {
  /** The executable. */
  bin: string;
  /** Extra environment (the unpacked libraries' folder). */
  env: Record<string, string>;
}

function onPath(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const path = join(dir, name);
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return undefined;
}

/** The browser, or an error saying how to install it (a missing browser fails, never skips). */
export function requireChromium(): ChromiumCommand {
  const unpacked = `${TOOLS_ROOT}usr/lib/chromium/chromium-headless-shell`;
  try {
    if (Deno.statSync(unpacked).isFile) {
      const libs = `${TOOLS_ROOT}usr/lib/x86_64-linux-gnu`;
      return { bin: unpacked, env: { LD_LIBRARY_PATH: `${libs}:${libs}/pulseaudio` } };
    }
  } catch { /* not unpacked */ }
  const found = onPath("chromium-headless-shell") ?? onPath("chromium");
  if (found) return { bin: found, env: {} };
  throw new Error(
    "headless Chromium is not installed: run .ci/run (it unpacks Debian's chromium-headless-shell into .cache/tools)",
  );
}

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio"];

/** Runs the browser once with `args` and returns stdout (e.g. `--dump-dom <url>`). */
export async function runChromium(args: string[], timeoutMs = 60_000): Promise<string> {
  const { bin, env } = requireChromium();
  const profile = await Deno.makeTempDir({ prefix: "pi-chromium-" });
  try {
    const child = new Deno.Command(bin, {
      args: [...FLAGS, `--user-data-dir=${profile}`, ...args],
      env,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const out = await child.output();
    clearTimeout(timer);
    if (!out.success) throw new Error(`chromium failed: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** One page under the DevTools protocol. */
export interface BrowserPage {
  /** Evaluates `expression` in the page and returns its (JSON-able) value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Loads `url` and waits for its load event. */
  navigate(url: string): Promise<void>;
  /** Every URL the page requested, in order. */
  readonly requests: string[];
  /** Captures the viewport as PNG bytes. */
  screenshot(): Promise<Uint8Array>;
  /** Ends the browser. */
  close(): Promise<void>;
}

interface CdpMessage {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** Starts the browser with a blank page and connects to it. */
export async function openBrowserPage(timeoutMs = 60_000): Promise<BrowserPage> {
  const { bin, env } = requireChromium();
  const profile = await Deno.makeTempDir({ prefix: "pi-chromium-" });
  const child = new Deno.Command(bin, {
    args: [...FLAGS, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "--window-size=1280,900"],
    env,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  // The browser prints its DevTools address on stderr once it listens.
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let address: string | undefined;
  while (!address) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`chromium ended before listening: ${seen}`);
    seen += value;
    address = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();

  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: CdpMessage) => void; reject: (e: Error) => void }>();
  const listeners: ((m: CdpMessage) => void)[] = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data) as CdpMessage;
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message);
    } else for (const listener of listeners) listener(message);
  };
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<CdpMessage>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });

  const target = await send("Target.createTarget", { url: "about:blank" });
  const attached = await send("Target.attachToTarget", { targetId: target.result?.targetId, flatten: true });
  const sessionId = attached.result?.sessionId as string;
  const requests: string[] = [];
  let loads = 0;
  listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === "Network.requestWillBeSent") {
      requests.push(String((m.params?.request as { url: string }).url));
    }
    if (m.method === "Page.loadEventFired") loads++;
  });
  await send("Network.enable", {}, sessionId);
  await send("Page.enable", {}, sessionId);

  return {
    requests,
    async evaluate<T>(expression: string): Promise<T> {
      const reply = await send(
        "Runtime.evaluate",
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      );
      const result = reply.result as { result: { value: T }; exceptionDetails?: { text: string } };
      if (result.exceptionDetails) throw new Error(`page threw: ${JSON.stringify(result.exceptionDetails)}`);
      return result.result.value;
    },
    async navigate(url: string) {
      const before = loads;
      await send("Page.navigate", { url }, sessionId);
      const deadline = Date.now() + 30_000;
      while (loads === before) {
        if (Date.now() > deadline) throw new Error(`timed out loading ${url}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async screenshot() {
      const reply = await send("Page.captureScreenshot", { format: "png" }, sessionId);
      const data = atob(String(reply.result?.data));
      return Uint8Array.from(data, (c) => c.charCodeAt(0));
    },
    async close() {
      clearTimeout(killer);
      socket.close();
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
