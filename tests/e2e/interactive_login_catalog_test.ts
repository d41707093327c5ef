/**
 * INT-LOGIN-CATALOG: after `/login` saves a key, the provider's model catalog is refreshed (pi 1.6.0's
 * completeProviderAuthentication) so `/model` lists the catalog server's new model straight away;
 * a catalog server that fails leaves the cached models with 1.6.0's warning. Our `pi` only (it is
 * pointed at the fake catalog server with PI_MODEL_CATALOG_URL; the scenario's PI_OFFLINE, which
 * turns the model network off as in 1.6.0, is unset for these runs).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import {
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
} from "../support/interactive_scenario.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 40 };

const FRESH_MODEL = {
  id: "deepseek-fresh-9",
  name: "DeepSeek Fresh 9",
  api: "openai-completions",
  baseUrl: "https://api.deepseek.com",
  reasoning: false,
  input: ["text"],
  cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128000,
  maxTokens: 8192,
};

/** A catalog server on 127.0.0.1: `status` 200 serves DeepSeek's catalog with {@link FRESH_MODEL}. */
function startCatalogServer(status: number) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    requests.push(`${url.pathname}${url.search}`);
    if (status !== 200) return new Response("broken", { status });
    if (!url.pathname.endsWith("/deepseek")) return new Response("none", { status: 404 });
    return Response.json([FRESH_MODEL], {
      headers: { "last-modified": "Tue, 01 Dec 2026 00:00:00 GMT", etag: '"v1"' },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, requests, close: () => server.shutdown() };
}

/** Starts our pi online against `catalogUrl` and saves a DeepSeek key through /login. */
async function loginDeepSeek(s: InteractiveScenario, catalogUrl: string): Promise<string> {
  await s.pane.command(
    `clear; env -u PI_OFFLINE PI_MODEL_CATALOG_URL=${shellQuote(catalogUrl)} ${s.piCommand()}`,
  );
  await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
  await s.pane.type("/login deepseek");
  await s.pane.waitFor((t) => t.includes("→ deepseek "), TIMEOUTS.step, "the completion");
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => !t.includes("→ deepseek "), TIMEOUTS.step, "the completion taken");
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => t.includes("Enter DeepSeek API key"), TIMEOUTS.step, "key field");
  await s.pane.type("sk-deepseek-test");
  await s.pane.keys("Enter");
  return await s.pane.waitFor((t) => t.includes("Saved API key for DeepSeek."), TIMEOUTS.step, "saved");
}

/** `/model deepseek/<id>` through its completion (which lists only available models), then run. */
async function chooseModel(s: InteractiveScenario, id: string): Promise<void> {
  await s.pane.type(`/model deepseek/${id}`);
  await s.pane.waitFor((t) => t.includes(`→ ${id} `), TIMEOUTS.step, `${id} offered by /model`);
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => !t.includes(`→ ${id} `), TIMEOUTS.step, "the completion taken");
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => t.includes(`(deepseek) ${id}`), TIMEOUTS.step, `${id} chosen`);
}

Deno.test("INT-LOGIN-CATALOG: /login refreshes the provider's catalog; /model lists its new model at once", async () => {
  const catalog = startCatalogServer(200);
  const s = await startInteractiveScenario([], SIZE);
  try {
    const saved = await loginDeepSeek(s, catalog.url);
    assert(
      s.normalized(saved).includes("Saved API key for DeepSeek. Credentials saved to <root>/agent/auth.json"),
      saved,
    );
    const deadline = Date.now() + TIMEOUTS.step;
    while (!catalog.requests.some((r) => r.includes("/deepseek")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(
      catalog.requests.filter((r) => r.includes("/deepseek")),
      ["/api/models/providers/deepseek?types=chat%2Cimage%2Cclassifier"],
    );
    await chooseModel(s, "deepseek-fresh-9");
    const store = JSON.parse(await Deno.readTextFile(join(s.agent.agentDir, "models-store.json")));
    assertEquals(store.deepseek.models.map((m: { id: string }) => m.id), ["deepseek-fresh-9"]);
    assertEquals(store.deepseek.etag, '"v1"');
  } finally {
    await s.close();
    await catalog.close();
  }
});

Deno.test("INT-LOGIN-CATALOG: a failing catalog server keeps the cached models with 1.6.0's warning", async () => {
  const catalog = startCatalogServer(403);
  const s = await startInteractiveScenario([], SIZE);
  try {
    await loginDeepSeek(s, catalog.url);
    const warned = await s.pane.waitFor(
      (t) => t.includes("could not be refreshed"),
      TIMEOUTS.step,
      "the warning",
    );
    assert(
      warned.includes(
        "Warning: Saved API key for DeepSeek, but its model catalog could not be refreshed; using cached\n models.",
      ),
      warned,
    );
    await chooseModel(s, "deepseek-flash");
  } finally {
    await s.close();
    await catalog.close();
  }
});
