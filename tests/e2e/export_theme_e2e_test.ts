/**
 * CLI-11 RPC-21 HTML export colours through the real CLI, against pi 1.6.0 with the same `theme`
 * setting (tests/fixtures/export/themes/capture_themes.mjs): `pi --export` passes no theme and
 * 1.6.0 has not loaded one yet, so the page has the default palette whatever the setting; RPC
 * `export_html` takes the setting's theme (built-in or `<agent dir>/themes/<name>.json`) when it
 * can be loaded, else the default palette.
 */
import { assertEquals } from "../support/assert.ts";
import { spawnPi } from "../support/spawn_pi.ts";

const HERE = new URL("../fixtures/export/themes/", import.meta.url).pathname;
const RICH = new URL("../fixtures/export/rich.jsonl", import.meta.url).pathname;
const EXPECTED: Record<string, string> = JSON.parse(Deno.readTextFileSync(`${HERE}themes.expected.json`));

function rootBlock(html: string): string {
  const match = /\n( *):root \{\n[\s\S]*?\n\1\}/.exec(html);
  if (!match) throw new Error("no :root block in the page");
  return match[0].slice(1);
}

for (const setting of ["light", "mint", "light/dark", "nosuch"]) {
  Deno.test(`CLI-11 RPC-21 export colours with theme setting ${setting}: --export and RPC export_html as 1.6.0`, async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-export-theme-" }));
    try {
      const env = {
        HOME: `${dir}/home`,
        PI_CODING_AGENT_DIR: `${dir}/agent`,
        NO_COLOR: "1",
        PATH: "/usr/bin:/bin",
      };
      await Deno.mkdir(env.HOME);
      await Deno.mkdir(`${env.PI_CODING_AGENT_DIR}/themes`, { recursive: true });
      for (const name of ["mint", "paper"]) {
        await Deno.copyFile(`${HERE}${name}.json`, `${env.PI_CODING_AGENT_DIR}/themes/${name}.json`);
      }
      await Deno.writeTextFile(
        `${env.PI_CODING_AGENT_DIR}/settings.json`,
        JSON.stringify({ theme: setting }),
      );
      const project = `${dir}/project`;
      await Deno.mkdir(project);
      const session = `${dir}/session.jsonl`;
      await Deno.writeTextFile(
        session,
        (await Deno.readTextFile(RICH)).split("/home/user/project").join(project),
      );

      const cli = await spawnPi(["--export", session, `${dir}/cli.html`], { cwd: project, env });
      assertEquals(cli.code, 0, cli.stderr);
      assertEquals(rootBlock(await Deno.readTextFile(`${dir}/cli.html`)), EXPECTED[`cli:${setting}`]);

      const stdin = JSON.stringify({ id: "a", type: "export_html", outputPath: `${dir}/rpc.html` }) + "\n";
      const rpc = await spawnPi(["--mode", "rpc", "--session", session], { cwd: project, env, stdin });
      const response = JSON.parse(rpc.stdout.split("\n").find((l) => l.includes('"id":"a"')) ?? "{}");
      assertEquals([response.success, response.data], [true, { path: `${dir}/rpc.html` }]);
      assertEquals(rootBlock(await Deno.readTextFile(`${dir}/rpc.html`)), EXPECTED[`rpc:${setting}`]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
