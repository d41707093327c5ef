/**
 * --list-models formatting and the pi-tui fuzzy filter, against reference-captured orderings
 * (tests/fixtures/cli/units_reference.json from capture_units.mjs).
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";
import { formatModelList, formatTokenCount } from "../../src/cli/list_models.ts";
import { fuzzyFilter, fuzzyMatch } from "../../src/cli/fuzzy.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url).pathname;
const units = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "units_reference.json"))) as {
  fuzzyTexts: string[];
  fuzzy: { query: string; result: string[] }[];
};

Deno.test("CLI-17 token counts: K/M with one decimal unless whole", () => {
  const cases: [number, string][] = [
    [500, "500"],
    [999, "999"],
    [1000, "1K"],
    [8192, "8.2K"],
    [16384, "16.4K"],
    [200000, "200K"],
    [1000000, "1M"],
    [1048576, "1.0M"],
    [1500000, "1.5M"],
  ];
  for (const [n, text] of cases) assertEquals(formatTokenCount(n), text, String(n));
});

for (const { query, result } of units.fuzzy) {
  Deno.test(`CLI-17 fuzzyFilter ${JSON.stringify(query)} over the catalog matches pi-tui's order`, () => {
    // The reference's own catalog texts, so the ordering is tested apart from catalog updates.
    assertEquals(fuzzyFilter(units.fuzzyTexts, query, (t) => t), result);
  });
}

Deno.test("CLI-17 fuzzyMatch swaps letters and digits as a fallback", () => {
  assertEquals(fuzzyMatch("gpt4", "4gpt").matches, true);
  assertEquals(fuzzyMatch("abc", "ab").matches, false);
});

async function withRegistry(modelsJson: string | undefined, fn: (r: ModelRegistry) => void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    if (modelsJson) await Deno.copyFile(join(FIXTURES, modelsJson), join(dir, "models.json"));
    const registry = ModelRegistry.create(AuthStorage.inMemory(), join(dir, "models.json"));
    fn(registry);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("CLI-17 table: sorted by provider then id, columns padded, trailing spaces kept", async () => {
  const ref = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "reference", "list_models.json")));
  await withRegistry("models_fake.json", (registry) => {
    const listing = formatModelList(registry);
    assertEquals(listing, { warnings: [], out: ref.stdout });
  });
});

Deno.test("CLI-17 search that matches nothing", async () => {
  await withRegistry("models_fake.json", (registry) => {
    assertEquals(formatModelList(registry, "zzzz").out, 'No models matching "zzzz"\n');
  });
});

Deno.test("CLI-17 a broken models.json warns first, then reports no models", async () => {
  await withRegistry("models_broken.json", (registry) => {
    const listing = formatModelList(registry);
    assertEquals(listing.warnings.length, 1);
    // deno-lint-ignore no-control-regex
    const plain = listing.warnings[0].replace(/\x1b\[\d+m/g, "");
    assertEquals(plain.startsWith("Warning: errors loading models.json:\nFailed to parse"), true);
    assertEquals(listing.out.startsWith("No models available. Use /login"), true);
  });
});
