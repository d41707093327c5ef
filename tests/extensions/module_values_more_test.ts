/**
 * More behaviour of the values extensions import from pi's modules (issue 16, export conformance):
 * the cases of tests/fixtures/extensions/module_exports/value_cases_more.mjs — pi-ai's
 * `StreamingJsonParser`, `ToolCallArgumentsStream`, `createFauxCore` and `registerFauxProvider`
 * (events, usage estimates, deferred replies), pi-agent-core's `DEFAULT_AGENT_IDENTITY`,
 * typebox's `CanComposite` —
 * run against what an extension gets here must give the results 1.6.0 gives under Node
 * (reference_values_more.json, captured by capture_reference_values_more.mjs in that folder; when
 * the reference is installed the test re-captures and compares).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ModuleNamespace, publishHostImport } from "../../src/extensions/host_modules.ts";
import { assertEquals } from "../support/assert.ts";
import { referenceCheckOutput } from "../support/reference_check.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/extensions/module_exports/", import.meta.url));
const EXPECTED_PATH = join(FIXTURES, "reference_values_more.json");
const CAPTURE = join(FIXTURES, "capture_reference_values_more.mjs");

type Cases = (
  modules: Record<"ai" | "agent" | "typebox", ModuleNamespace>,
) => Promise<Record<string, unknown>>;

/** What an extension's `import * as m from name` gets. */
async function hostModule(name: string): Promise<ModuleNamespace> {
  const namespace = await publishHostImport({ name, names: "*" });
  if (!namespace) throw new Error(`${name}: no namespace`);
  return namespace;
}

const { runCases } = await import(join(FIXTURES, "value_cases_more.mjs")) as { runCases: Cases };
const ours = JSON.parse(JSON.stringify(
  await runCases({
    ai: await hostModule("@earendil-works/pi-ai"),
    agent: await hostModule("@earendil-works/pi-agent-core"),
    typebox: await hostModule("typebox"),
  }),
)) as Record<string, Record<string, unknown>>;
const expected = JSON.parse(Deno.readTextFileSync(EXPECTED_PATH)) as Record<string, Record<string, unknown>>;

for (const [module, cases] of Object.entries(expected)) {
  for (const [name, value] of Object.entries(cases)) {
    Deno.test(`EXT-MODULES ${module}: ${name} behaves as in 1.6.0`, () => {
      assertEquals(ours[module]?.[name], value);
    });
  }
}

Deno.test("EXT-MODULES reference_values_more.json equals what the installed 1.6.0 gives", async () => {
  const live = await referenceCheckOutput(CAPTURE, "reference_values_more.json");
  if (live !== undefined) assertEquals(live, expected);
});
