/**
 * CLI-17 `pi --list-models` for the Cloudflare providers equals pi 1.6.0's output for the same
 * (empty) models.json and environment: both providers with the key, account and gateway ids;
 * only Workers AI without the gateway id; neither with the key alone ("No models available").
 */
import { assertEquals } from "../support/assert.ts";
import { listModelsBoth } from "./list_models_compare.ts";

const KEY = { CLOUDFLARE_API_KEY: "cf-test-token-0001" };

const CASES: { name: string; env: Record<string, string>; providers: string[] }[] = [
  {
    name: "key, account and gateway ids",
    env: { ...KEY, CLOUDFLARE_ACCOUNT_ID: "acct123", CLOUDFLARE_GATEWAY_ID: "gw-main" },
    providers: ["cloudflare-ai-gateway", "cloudflare-workers-ai"],
  },
  {
    name: "key and account id: Workers AI only",
    env: { ...KEY, CLOUDFLARE_ACCOUNT_ID: "acct123" },
    providers: ["cloudflare-workers-ai"],
  },
  { name: "key alone: neither", env: KEY, providers: [] },
];

for (const c of CASES) {
  Deno.test(`CLI-17 --list-models cloudflare, ${c.name}: equal to pi 1.6.0's`, async () => {
    const [ours, theirs] = await listModelsBoth(["--list-models", "cloudflare"], c.env);
    assertEquals(ours, theirs);
    const listed = new Set(
      ours.stdout.split("\n").slice(1).map((line) => line.split(" ")[0]).filter(Boolean),
    );
    assertEquals([...listed].filter((p) => p.startsWith("cloudflare")).sort(), c.providers);
  });
}
