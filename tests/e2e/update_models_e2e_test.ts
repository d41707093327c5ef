/**
 * PKG `pi update --models` (pi 1.6.0 docs/cli.md "Refresh model catalogs only") against a fake
 * catalog server on 127.0.0.1, step by step next to pi 1.6.0 (whose requests to https://pi.dev are
 * redirected to the same server by tests/fixtures/model_catalog/redirect_catalog.mjs; ours is pointed
 * there with PI_MODEL_CATALOG_URL): what is printed, the exit code and models-store.json afterwards
 * must be equal (the `checkedAt` time normalised), and a refreshed catalog shows in `--list-models`.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { spawnPi } from "../support/spawn_pi.ts";

const REDIRECT = new URL("../fixtures/model_catalog/redirect_catalog.mjs", import.meta.url).pathname;

/** What the fake catalog server answers for one request. */
type Answer = (request: Request) => Response;

interface CatalogServer {
  url: string;
  /** "<path>?<query> if-none-match=<value>" of every request so far. */
  requests: string[];
  answer: Answer;
  close(): Promise<void>;
}

function startCatalogServer(): CatalogServer {
  const state: CatalogServer = {
    url: "",
    requests: [],
    answer: () => new Response("not found", { status: 404 }),
    close: async () => {},
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    state.requests.push(`${url.pathname}${url.search} if-none-match=${request.headers.get("if-none-match")}`);
    return state.answer(request);
  });
  state.url = `http://127.0.0.1:${server.addr.port}`;
  state.close = () => server.shutdown();
  return state;
}

const FRESH_MODEL = {
  id: "claude-fresh-1",
  name: "Claude Fresh 1",
  api: "anthropic-messages",
  baseUrl: "https://api.anthropic.com",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200000,
  maxTokens: 64000,
};

/** The catalog answer: one new chat model, one image model, and an entry without an id (dropped). */
function catalogAnswer(request: Request): Response {
  if (!new URL(request.url).pathname.endsWith("/anthropic")) return new Response("none", { status: 404 });
  if (request.headers.get("if-none-match") === '"v1"') return new Response(null, { status: 304 });
  return Response.json(
    [FRESH_MODEL, { id: "fresh-image", type: "image", api: "anthropic-messages" }, { name: "no id" }],
    { headers: { "last-modified": "Tue, 01 Dec 2026 00:00:00 GMT", etag: '"v1"' } },
  );
}

interface Sandbox {
  agentDir: string;
  env: Record<string, string>;
}

async function sandbox(root: string, name: string, credentials: boolean): Promise<Sandbox> {
  const home = join(root, name, "home");
  const agentDir = join(root, name, "agent");
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(agentDir, { recursive: true });
  const env: Record<string, string> = { HOME: home, PI_CODING_AGENT_DIR: agentDir };
  if (credentials) env.ANTHROPIC_API_KEY = "sk-ant-test-key";
  return { agentDir, env };
}

interface Observed {
  code: number;
  stdout: string;
  stderr: string;
  store: string;
}

async function storeText(agentDir: string): Promise<string> {
  try {
    return await Deno.readTextFile(join(agentDir, "models-store.json"));
  } catch {
    return "<missing>";
  }
}

/** The store with each `checkedAt` (a time in milliseconds) replaced. */
function normaliseStore(text: string): string {
  return text.replace(/"checkedAt": (\d+)/g, (_all, value: string) => {
    assert(Number.isSafeInteger(Number(value)) && Number(value) > 0, `checkedAt ${value} is a time`);
    return `"checkedAt": "<time>"`;
  });
}

async function run(box: Sandbox, args: string[], reference: boolean, serverUrl: string): Promise<Observed> {
  const env = reference
    ? { ...box.env, NODE_OPTIONS: `--import ${REDIRECT}`, PI_TEST_CATALOG_REDIRECT: serverUrl }
    : { ...box.env, PI_MODEL_CATALOG_URL: serverUrl };
  const result = await spawnPi(args, { env, cwd: box.agentDir, reference, timeoutMs: 60_000 });
  assert(!result.timedOut, `pi ${args.join(" ")} timed out`);
  return {
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    store: normaliseStore(await storeText(box.agentDir)),
  };
}

Deno.test("PKG-UPDATE-MODELS pi update --models matches pi 1.6.0: 200, 304, 500, broken body, unreachable, 404", async () => {
  requireReference();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-catalog-" }));
  const server = startCatalogServer();
  try {
    const ours = await sandbox(root, "ours", true);
    const ref = await sandbox(root, "ref", true);
    const both = async (args: string[], url = server.url) => {
      server.requests.length = 0;
      const a = await run(ours, args, false, url);
      const oursRequests = [...server.requests];
      server.requests.length = 0;
      const b = await run(ref, args, true, url);
      assertEquals(a, b, `pi ${args.join(" ")}`);
      assertEquals(oursRequests, server.requests, `requests of pi ${args.join(" ")}`);
      return { observed: a, requests: oursRequests };
    };

    // 200: the catalog is stored, and its new chat model is listed.
    server.answer = catalogAnswer;
    const first = await both(["update", "--models"]);
    assertEquals(first.observed.code, 0);
    assertEquals(first.observed.stdout, "Model catalogs refreshed\n");
    assertEquals(first.requests, [
      "/api/models/providers/anthropic?types=chat%2Cimage%2Cclassifier if-none-match=null",
    ]);
    const stored = JSON.parse(first.observed.store);
    assertEquals(stored.anthropic.models.map((m: { id: string }) => m.id), ["claude-fresh-1", "fresh-image"]);
    assertEquals(stored.anthropic.etag, '"v1"');
    assertEquals(stored.anthropic.lastModified, Date.parse("2026-12-01T00:00:00Z"));
    const listed = await both(["--list-models", "fresh"]);
    assertEquals(listed.requests, [], "--list-models does not ask the catalog server");
    assertEquals(listed.observed.stdout.split("\n").slice(1), [
      "anthropic  claude-fresh-1  200K     64K      yes       yes   ",
      "",
    ]);

    // 304: the ETag is sent back; only checkedAt moves.
    const second = await both(["update", "--models"]);
    assertEquals(second.requests, [
      '/api/models/providers/anthropic?types=chat%2Cimage%2Cclassifier if-none-match="v1"',
    ]);
    assertEquals(second.observed.store, first.observed.store);

    // 500 (asked three times), a body that is not JSON: exit 1, the cached models stay.
    server.answer = () => new Response("boom", { status: 500 });
    const failed = await both(["update", "--models"]);
    assertEquals(failed.observed.code, 1);
    assertEquals(
      failed.observed.stderr,
      "Error: Could not refresh model catalogs: anthropic: Model catalog request failed for anthropic: 500\n",
    );
    assertEquals(failed.requests.length, 3);
    assertEquals(failed.observed.store, first.observed.store);
    server.answer = () => new Response("not json", { status: 200, headers: { etag: '"v2"' } });
    const broken = await both(["update", "--models"]);
    assertEquals(broken.observed.code, 1);
    assert(
      broken.observed.stderr.startsWith(
        "Error: Could not refresh model catalogs: anthropic: Unexpected token",
      ),
    );
    assertEquals(broken.observed.store, first.observed.store);

    // Unreachable: a port nothing listens on.
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const deadUrl = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
    closed.close();
    const unreachable = await both(["update", "--models"], deadUrl);
    assertEquals(unreachable.observed.code, 1);
    assertEquals(
      unreachable.observed.stderr,
      "Error: Could not refresh model catalogs: anthropic: fetch failed\n",
    );
    assertEquals(unreachable.observed.store, first.observed.store);

    // 404: no catalog for the provider; the cached models are kept but no longer used.
    server.answer = () => new Response("none", { status: 404 });
    const missing = await both(["update", "--models"]);
    assertEquals(missing.observed.code, 0);
    assertEquals(JSON.parse(missing.observed.store).anthropic.lastModified, 0);
    const relisted = await both(["--list-models", "fresh"]);
    assertEquals(relisted.observed.stdout, 'No models matching "fresh"\n');
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("PKG-UPDATE-MODELS without credentials asks nothing and says the catalogs are refreshed, as pi 1.6.0", async () => {
  requireReference();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-catalog-" }));
  const server = startCatalogServer();
  try {
    server.answer = catalogAnswer;
    const ours = await run(await sandbox(root, "ours", false), ["update", "--models"], false, server.url);
    const ref = await run(await sandbox(root, "ref", false), ["update", "--models"], true, server.url);
    assertEquals(ours, ref);
    assertEquals(ours.code, 0);
    assertEquals(ours.stdout, "Model catalogs refreshed\n");
    assertEquals(server.requests, []);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("PKG-UPDATE-MODELS an unreadable models-store.json is a clear error and is left as it is", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-catalog-" }));
  const server = startCatalogServer();
  try {
    server.answer = catalogAnswer;
    const box = await sandbox(root, "ours", true);
    await Deno.writeTextFile(join(box.agentDir, "models-store.json"), "{ broken");
    const result = await spawnPi(["update", "--models"], {
      env: { ...box.env, PI_MODEL_CATALOG_URL: server.url },
      cwd: box.agentDir,
    });
    assertEquals(result.code, 1);
    assertEquals(
      result.stderr,
      `Error: ${join(box.agentDir, "models-store.json")} could not be read (Expected property name or '}' ` +
        `in JSON at position 2 (line 1 column 3)); fix or delete it, nothing was changed\n`,
    );
    assertEquals(await Deno.readTextFile(join(box.agentDir, "models-store.json")), "{ broken");
    assertEquals(server.requests, []);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
