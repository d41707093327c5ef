/**
 * CombinedAutocompleteProvider: its suggestions and completions equal pi-tui 1.6.0's (slash
 * commands, arguments, paths in a scratch directory, quoting, applyCompletion's forms), and the
 * `@` fuzzy file search runs `fd` with pi-tui's arguments, ranks what it prints and stops when
 * aborted (checked against a stand-in fd script, so no installed fd is needed).
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { CombinedAutocompleteProvider } from "../../src/tui/autocomplete.ts";
import { PREAMBLE } from "./editor_driver.ts";

const SCRATCH = `${PREAMBLE}
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-acp-'));
  for (const d of ['src', 'src/components', 'docs', 'my dir', '.hidden', 'Zeta']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  for (const f of ['src/main.ts', 'src/Main2.ts', 'src/util.ts', 'src/components/editor.ts', 'docs/readme.md',
    'my dir/file one.txt', 'package.json', 'alpha.txt', 'Alpha.md', '.env', 'a=b.txt', '你好.txt']) {
    fs.writeFileSync(path.join(dir, f), 'x');
  }
  fs.symlinkSync(path.join(dir, 'docs'), path.join(dir, 'docs-link'));
  fs.symlinkSync(path.join(dir, 'missing'), path.join(dir, 'broken-link'));
  // "~" completes against a home folder of known content, never the machine's (or a HOME some
  // earlier run left behind).
  for (const d of ['home/.config', 'home/projects']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.writeFileSync(path.join(dir, 'home/notes.txt'), 'x');
  const savedHome = process.env.HOME;
  process.env.HOME = path.join(dir, 'home');
`;

const COMMANDS = `[
  { name: 'model', description: 'Select the model' },
  { name: 'compact', description: 'Compact', argumentHint: '[instructions]' },
  { name: 'copy', argumentHint: '<n>' },
  { name: 'clear' },
  { name: 'skill:review', description: 'Review code' },
  { name: 'skill:commit' },
  { name: 'open', getArgumentCompletions: async (p) => p === 'none' ? null : [{ value: p + '1', label: p + '1' }] },
  { value: 'export', label: 'export', description: 'Export' },
]`;

/** Lines before the cursor whose suggestions (forced and not) are recorded. */
const QUERIES = [
  "/",
  "/c",
  "/co",
  "/rev",
  "/skill:c",
  "/zzz",
  "  /mo",
  "/open ",
  "/open ab",
  "/open none",
  "/model x",
  "src/",
  "src/m",
  "src/M",
  "./src/",
  "./",
  "docs/r",
  "sr",
  "",
  "hello ",
  "hello",
  "x src/comp",
  '"my',
  '"my dir/',
  '@"my',
  "a=b",
  "(src/",
  "`src/u",
  "你好，src/",
  "my dir/",
  "Zeta",
  "docs-",
  "broken",
  ".h",
  ".",
  "~/",
  "~",
  "/nonexistent-dir-xyz/",
  "look at @src",
  "@",
  "#12",
];

/**
 * The cases. A forced completion of a word right after "/" ("/", "/co", "  /mo") completes a path
 * in the machine's root folder (the capture once held the development machine's
 * "/container_info.json" for "/co", which the CI machine lacks), so it is not recorded: the stored
 * capture must not depend on the machine it was made on.
 */
const ROOT_WORD = /^\s*\/[^\s/]*$/;

function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const query of QUERIES) {
    out.push({
      name: `suggest/${JSON.stringify(query)}`,
      body: `${SCRATCH}
        try {
          const p = new T.CombinedAutocompleteProvider(${COMMANDS}, dir, null);
          const signal = new AbortController().signal;
          const lines = [${js(query)} + 'TAIL'];
          const col = ${query.length};
          return {
            plain: await p.getSuggestions(lines, 0, col, { signal }),
            forced: ${
        ROOT_WORD.test(query)
          ? "'not recorded'"
          : "await p.getSuggestions(lines, 0, col, { signal, force: true })"
      },
            tab: p.shouldTriggerFileCompletion(lines, 0, col),
          };
        } finally {
          process.env.HOME = savedHome;
          fs.rmSync(dir, { recursive: true, force: true });
        }`,
    });
  }
  const applies: Array<[string, number, { value: string; label: string }, string]> = [
    ["/mo", 3, { value: "model", label: "model" }, "/mo"],
    ["  /mo rest", 5, { value: "model", label: "model" }, "/mo"],
    ["x @sr", 5, { value: "@src/", label: "src/" }, "@sr"],
    ["x @ma end", 5, { value: "@src/main.ts", label: "main.ts" }, "@ma"],
    ['@"my', 4, { value: '@"my dir/"', label: "my dir/" }, '@"my'],
    ['@"my"', 4, { value: '@"my dir/file one.txt"', label: "file one.txt" }, '@"my'],
    ['"my"', 3, { value: '"my dir/"', label: "my dir/" }, '"my'],
    ["/open al", 8, { value: "alpha", label: "alpha" }, "al"],
    ["see src/m", 9, { value: "src/main.ts", label: "main.ts" }, "src/m"],
    ["see src/c", 9, { value: "src/components/", label: "components/" }, "src/c"],
    ["/usr/lo", 7, { value: "/usr/local/", label: "local/" }, "/usr/lo"],
    ["fix #1", 6, { value: "#12", label: "#12" }, "#1"],
  ];
  applies.forEach(([line, col, item, prefix], i) => {
    out.push({
      name: `apply/${i}/${JSON.stringify(line)}`,
      body: `${PREAMBLE}const p = new T.CombinedAutocompleteProvider([], '/nonexistent-base', null);
        return p.applyCompletion(['before', ${js(line)}, 'after'], 1, ${col}, ${js(item)}, ${js(prefix)});`,
    });
  });
  out.push({
    name: "at/no-fd",
    body: `const p = new T.CombinedAutocompleteProvider([], '/nonexistent-base');
      return await p.getSuggestions(['@src'], 0, 4, { signal: new AbortController().signal });`,
  });
  return out;
}

Deno.test("CombinedAutocompleteProvider suggests and completes as pi-tui 1.6.0 does", async () => {
  await compareWithPiTui("autocomplete_provider", cases());
});

/**
 * A stand-in fd: logs its arguments and prints a fixed listing (directories end in "/"), or with
 * `sleep` becomes a sleeping process (exec, so killing it closes its output).
 */
async function fakeFd(dir: string, listing: string[], exitCode = 0, sleep = 0): Promise<string> {
  const script = `${dir}/fd`;
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\necho "$@" >> "${dir}/args.log"\n${sleep ? `exec sleep ${sleep}\n` : ""}printf '%s\\n' ${
      listing.map((l) => `'${l}'`).join(" ")
    }\nexit ${exitCode}\n`,
  );
  await Deno.chmod(script, 0o755);
  return script;
}

Deno.test("@ completion runs fd with pi-tui's arguments and ranks its answer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/base/src`, { recursive: true });
    const fd = await fakeFd(dir, [
      "src/",
      "src/main.ts",
      "docs/main-notes.md",
      ".git/config",
      "x/.git/y",
      "mainly.ts",
    ]);
    const provider = new CombinedAutocompleteProvider([], `${dir}/base`, fd);
    const result = await provider.getSuggestions(["see @main"], 0, 9, {
      signal: new AbortController().signal,
    });
    assertEquals(result?.prefix, "@main");
    assertEquals(result?.items.map((i) => [i.value, i.label, i.description]), [
      ["@mainly.ts", "mainly.ts", "mainly.ts"],
      ["@src/main.ts", "main.ts", "src/main.ts"],
      ["@docs/main-notes.md", "main-notes.md", "docs/main-notes.md"],
    ]);
    const args = (await Deno.readTextFile(`${dir}/args.log`)).trim().split("\n");
    const common = `--base-directory ${dir}/base --max-results 100 --type f --type d --follow --hidden ` +
      `--exclude .git --exclude .git/* --exclude .git/**`;
    assertEquals(args, [`${common} --max-depth 1 main`, `${common} main`]);

    // A scoped query searches inside the named directory and shows paths under it.
    await Deno.remove(`${dir}/args.log`);
    const scoped = await provider.getSuggestions(['@"src/ma'], 0, 8, {
      signal: new AbortController().signal,
    });
    assertEquals(scoped?.items[0], {
      value: '@"src/mainly.ts"',
      label: "mainly.ts",
      description: "src/mainly.ts",
    });
    assertEquals(
      (await Deno.readTextFile(`${dir}/args.log`)).includes(`--base-directory ${dir}/base/src/ `),
      true,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("@ completion gives nothing when fd fails, is missing, or the request is aborted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const failing = await fakeFd(dir, ["a.ts"], 1);
    const signal = new AbortController().signal;
    assertEquals(
      await new CombinedAutocompleteProvider([], dir, failing).getSuggestions(["@a"], 0, 2, { signal }),
      null,
    );
    const missing = new CombinedAutocompleteProvider([], dir, `${dir}/no-such-fd`);
    assertEquals(await missing.getSuggestions(["@a"], 0, 2, { signal }), null);

    const slow = await fakeFd(dir, ["a.ts"], 0, 5);
    const controller = new AbortController();
    const started = performance.now();
    const pending = new CombinedAutocompleteProvider([], dir, slow).getSuggestions(["@a"], 0, 2, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    assertEquals(await pending, null);
    // The child was killed: the answer came long before its 5 s sleep ended.
    assertEquals(performance.now() - started < 4000, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
