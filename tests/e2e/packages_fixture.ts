/**
 * Fixtures for the package-command tests, all local and with the real clients: npm packages made
 * with `npm pack` and served by a tiny npm registry on 127.0.0.1 (packuments and tarballs, enough
 * for `npm install`), and git repositories as bare repos in the temp folder, reached through a
 * `url.<base>.insteadOf` rule in the test's own HOME/.gitconfig, so that `git:example.test/…`
 * sources clone from disk without any network.
 *
 * @module
 */
import { join } from "node:path";
import { spawnPi } from "../support/spawn_pi.ts";

/** One file of a fixture package, relative to its root. */
export type FixtureFiles = Record<string, string>;

async function writeFiles(root: string, files: FixtureFiles): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

async function run(cmd: string, args: string[], cwd: string, env?: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}${text}`);
  }
  return text;
}

/** A package version the registry serves. */
interface PublishedVersion {
  name: string;
  version: string;
  tarball: Uint8Array;
  shasum: string;
  integrity: string;
}

/** A local npm registry serving packed fixture packages. */
export interface FixtureRegistry {
  /** Its base URL, ending in `/`. */
  url: string;
  /** Packs `files` (a package.json is made from name and version) and serves it. */
  publish(name: string, version: string, files: FixtureFiles): Promise<void>;
  /** Requests seen, for asserting what was fetched. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a registry whose packages are packed from folders under `workDir`. */
export function startFixtureRegistry(workDir: string): FixtureRegistry {
  const published = new Map<string, PublishedVersion[]>();
  const requests: string[] = [];
  let base = "";
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, (request): Response => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}`);
    const path = decodeURIComponent(url.pathname.slice(1));
    const tarballMatch = path.match(/^(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/);
    if (tarballMatch) {
      const found = published.get(tarballMatch[1])?.find((v) => v.version === tarballMatch[2]);
      if (!found) return new Response("not found", { status: 404 });
      return new Response(found.tarball as BodyInit, {
        headers: { "content-type": "application/octet-stream" },
      });
    }
    const versions = published.get(path);
    if (!versions) return Response.json({ error: "Not found" }, { status: 404 });
    const packument = {
      name: path,
      "dist-tags": { latest: versions[versions.length - 1].version },
      versions: Object.fromEntries(versions.map((v) => {
        const file = `${path.split("/").pop()}-${v.version}.tgz`;
        return [v.version, {
          name: v.name,
          version: v.version,
          dist: { tarball: `${base}${path}/-/${file}`, shasum: v.shasum, integrity: v.integrity },
        }];
      })),
    };
    return Response.json(packument);
  });
  const url = `http://${server.addr.hostname}:${server.addr.port}/`;
  base = url;
  return {
    url,
    requests,
    async publish(name, version, files) {
      const dir = join(workDir, `pack-${name.replace(/[@/]/g, "_")}-${version}`);
      await Deno.mkdir(dir, { recursive: true });
      await writeFiles(dir, { "package.json": JSON.stringify({ name, version }, null, 2), ...files });
      const out = await run("npm", ["pack", "--json", "--pack-destination", dir], dir, {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: workDir,
      });
      const info = JSON.parse(out)[0] as { filename: string; shasum: string; integrity: string };
      const tarball = await Deno.readFile(join(dir, info.filename));
      const list = published.get(name) ?? [];
      list.push({ name, version, tarball, shasum: info.shasum, integrity: info.integrity });
      published.set(name, list);
    },
    async close() {
      await server.shutdown();
    },
  };
}

/** A bare git repository the tests push commits and tags to. */
export interface FixtureGitRepo {
  /** The bare repository's folder. */
  bare: string;
  /** Commits `files` on the default branch (main) and pushes; tags the commit when `tag` is given. */
  commit(files: FixtureFiles, tag?: string): Promise<string>;
}

/**
 * Creates `<root>/git/<owner>/<name>.git` (bare) and a work tree beside it. Pair with
 * {@link gitConfigFor} so `https://example.test/<owner>/<name>` clones from it.
 */
export async function createFixtureGitRepo(
  root: string,
  owner: string,
  name: string,
): Promise<FixtureGitRepo> {
  const bare = join(root, "git", owner, `${name}.git`);
  const work = join(root, "git-work", owner, name);
  await Deno.mkdir(bare, { recursive: true });
  await Deno.mkdir(work, { recursive: true });
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: root,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.test",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.test",
    GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  };
  await run("git", ["init", "--bare", "-q", "-b", "main", bare], root, env);
  await run("git", ["init", "-q", "-b", "main", work], root, env);
  await run("git", ["remote", "add", "origin", bare], work, env);
  return {
    bare,
    async commit(files, tag) {
      await writeFiles(work, files);
      await run("git", ["add", "-A"], work, env);
      await run("git", ["commit", "-q", "-m", "c"], work, env);
      if (tag) await run("git", ["tag", "-f", tag], work, env);
      await run("git", ["push", "-q", "-f", "origin", "main", "--tags"], work, env);
      return (await run("git", ["rev-parse", "HEAD"], work, env)).trim();
    },
  };
}

/** A .gitconfig for a test HOME: `https://example.test/` means the bare repos under `root/git/`. */
export function gitConfigFor(root: string): string {
  return `[url "file://${join(root, "git")}/"]\n\tinsteadOf = https://example.test/\n` +
    `[protocol "file"]\n\tallow = always\n[init]\n\tdefaultBranch = main\n`;
}

/** One isolated pi environment with its fixtures. */
export interface Sandbox {
  /** The sandbox's bare repo `alice/tools` (tags v1 and v2). */
  repo: FixtureGitRepo;
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  env: Record<string, string>;
}

/** A sandbox under `base/name`: HOME with the git rule, agent dir, project, a local package and a git repo. */
export async function makeSandbox(registry: FixtureRegistry, base: string, name: string): Promise<Sandbox> {
  const root = join(base, name);
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  for (const dir of [home, agentDir, cwd, join(root, "localpkg", "prompts")]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.writeTextFile(join(root, "localpkg", "prompts", "hi.md"), "---\ndescription: hi\n---\nHi\n");
  await Deno.writeTextFile(join(home, ".gitconfig"), gitConfigFor(root));
  const repo = await createFixtureGitRepo(root, "alice", "tools");
  await repo.commit(
    { "skills/hello/SKILL.md": "---\nname: hello\ndescription: Says hello\n---\nHi\n" },
    "v1",
  );
  await repo.commit({ "prompts/p.md": "---\ndescription: p\n---\nP\n" }, "v2");
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    NPM_CONFIG_REGISTRY: registry.url,
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    PI_SKIP_VERSION_CHECK: "1",
    NO_COLOR: "1",
  };
  return { root, home, agentDir, cwd, env, repo };
}

/** What one command showed, with temp paths and npm's timings and log names masked. */
export interface Observed {
  code: number;
  stdout: string;
  /** pi's own stderr lines (npm's and git's chatter differs by timing and is not pi's). */
  stderr: string[];
}

/** Masks the sandbox root and npm's timings. */
export function normalise(text: string, root: string): string {
  return text.replaceAll(root, "<root>").replace(/ in \d+(?:\.\d+)?m?s\b/g, " in <t>");
}

/** Runs one command in a sandbox, ours or 1.6.0's. */
export async function runIn(box: Sandbox, args: string[], reference: boolean): Promise<Observed> {
  const run = await spawnPi(args, { env: box.env, cwd: box.cwd, reference, timeoutMs: 120_000 });
  const piLines =
    /^(Error|Warning|No matching|Project is not|Unknown option|Unexpected argument|Missing|Usage|Use ")/;
  return {
    code: run.code,
    stdout: normalise(run.stdout, box.root),
    stderr: normalise(run.stderr, box.root).split("\n").filter((line) => piLines.test(line)),
  };
}

/** A file's text, or null when it does not exist. */
export async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** Names in a folder, sorted; `<missing>` when it does not exist. */
export async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch {
    return ["<missing>"];
  }
  return out.sort();
}

/** Files and folders a user can see after a step. */
export async function disk(box: Sandbox): Promise<Record<string, unknown>> {
  return {
    settings: await readOrNull(join(box.agentDir, "settings.json")),
    projectSettings: await readOrNull(join(box.cwd, ".pi", "settings.json")),
    agent: await listing(box.agentDir),
    git: await listing(join(box.agentDir, "git")),
    gitHosts: await listing(join(box.agentDir, "git", "example.test", "alice")),
    npmModules: (await listing(join(box.agentDir, "npm", "node_modules"))).filter((name) => name !== ".bin"),
    npmPackageJson: await readOrNull(join(box.agentDir, "npm", "package.json")),
    gitignore: await readOrNull(join(box.agentDir, "npm", ".gitignore")),
  };
}
