/**
 * Start-up stays as it was with every cloud credential source in (issue 17): no static import
 * chain from main.ts reaches the Bedrock credential chain or Vertex's ADC modules (they load with
 * their provider, at its first request), and within them the sources a request may not need —
 * STS, SSO, console login sessions, container/IMDS, external accounts, the metadata server, AWS-sourced subject tokens —
 * load only when a credential of that kind is used.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);
const href = (path: string) => new URL(`src/ai/providers/${path}`, REPO).href;

const CORE = [
  "bedrock_credentials.ts",
  "bedrock_credentials_files.ts",
  "bedrock_credentials_http.ts",
  "google_vertex_auth.ts",
  "google_vertex_auth_common.ts",
];
const ON_DEMAND: [string, string][] = [
  ["bedrock.ts", "bedrock_credentials_sts.ts"],
  ["bedrock.ts", "bedrock_credentials_sso.ts"],
  ["bedrock.ts", "bedrock_credentials_remote.ts"],
  ["bedrock.ts", "bedrock_credentials_login.ts"],
  ["google_vertex.ts", "google_vertex_auth_external.ts"],
  ["google_vertex.ts", "google_vertex_auth_metadata.ts"],
  ["google_vertex.ts", "google_vertex_auth_aws.ts"],
];

Deno.test("PROV-01 cloud credential modules stay off the start-up path and load per source", async () => {
  const graph = await moduleGraph();
  const all = [...CORE, ...ON_DEMAND.map(([, module]) => module)].map(href);
  for (const module of all) assert(graph.has(module), `${module} is not in main.ts's graph`);
  const eager = staticClosure(graph, new URL("main.ts", REPO).href);
  assertEquals(all.filter((m) => eager.has(m)), []);
  for (const [provider, module] of ON_DEMAND) {
    const closure = staticClosure(graph, href(provider));
    assertEquals(closure.has(href(module)), false, `${provider} imports ${module} statically`);
  }
});
