/**
 * The exported page in a real browser (headless Chromium): it renders the branch, clicking a tree
 * node shows that node's branch, search and filters narrow the tree, a deep link opens and
 * scrolls to its entry, and the page requests nothing from the network; a skill invocation shows as
 * a folded block. ID: HTML-03.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { openBrowserPage } from "../support/chromium.ts";
import { spawnPi } from "../support/spawn_pi.ts";

const RICH = new URL("../fixtures/export/rich.jsonl", import.meta.url).pathname;

async function exportRich(): Promise<{ dir: string; url: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pi-export-browser-" });
  const home = `${dir}/home`;
  await Deno.mkdir(home);
  const r = await spawnPi(["--export", RICH, `${dir}/rich.html`], {
    cwd: dir,
    env: { HOME: home, PI_CODING_AGENT_DIR: `${dir}/agent`, NO_COLOR: "1", PATH: "/usr/bin:/bin" },
  });
  assertEquals(r.code, 0, r.stderr);
  return { dir, url: `file://${dir}/rich.html` };
}

const messagesText = "document.getElementById('messages').innerText";
const visibleNodes = "[...document.querySelectorAll('.tree-node')].map((n) => n.dataset.id)";

Deno.test("HTML-03 the exported page in headless Chromium: branch, tree click, search and filters, Esc, deep link, no network", async () => {
  const { dir, url } = await exportRich();
  const page = await openBrowserPage();
  try {
    await page.navigate(url);
    // Opens on the session's leaf: the changelog branch, not the deploy branch.
    const text = await page.evaluate<string>(messagesText);
    assert(text.includes("Changelog written."), text);
    assert(text.includes("Instead, write a changelog"));
    assert(!text.includes("Deployed."));
    assertEquals(
      await page.evaluate(`document.getElementById('header-container').querySelector('h1').textContent`),
      "Session: 0c9f5d1e-0000-7000-8000-00000000e0e0",
    );
    assertEquals(
      await page.evaluate(`document.getElementById('tree-status').textContent`),
      "17 / 22 entries",
    );
    // Tool calls as the terminal shows them; images inline; ANSI colours kept; markup in a message is text.
    assertEquals(await page.evaluate(`document.querySelector('.tool-command').textContent`), "$ npm test");
    assertEquals(
      await page.evaluate(`[...document.querySelectorAll('.diff-added')].map((d) => d.textContent)`),
      ["+ 3 export const answer = 42;"],
    );
    assertEquals(
      await page.evaluate(
        `[...document.querySelectorAll('.tool-output span[style]')].map((s) => s.textContent + '|' + s.style.color)`,
      ),
      ["PASS|rgb(0, 128, 0)", "FAIL|rgb(128, 0, 0)"],
    );
    assertEquals(
      await page.evaluate(`document.querySelector('img.message-image').src.slice(0, 22)`),
      "data:image/png;base64,",
    );
    assertEquals(await page.evaluate(`document.querySelector('img.message-image').naturalWidth`), 4);
    assertEquals(await page.evaluate(`document.querySelectorAll('#messages script').length`), 0);
    assert(text.includes("<script>alert(1)</script>"));
    // Clicking a node of the other branch shows that branch.
    await page.evaluate(`document.querySelector('.tree-node[data-id="e0000018"]').click()`);
    const other = await page.evaluate<string>(messagesText);
    assert(other.includes("Deployed.") && other.includes("Now deploy it"), other);
    assert(!other.includes("Changelog written."));
    assert(other.includes("Remember to run the linter."));
    // Hidden custom messages stay hidden until asked for (H).
    assertEquals(
      await page.evaluate(`getComputedStyle(document.querySelector('.hook-message-hidden')).display`),
      "none",
    );
    await page.evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', { key: 'h' }))`);
    assertEquals(
      await page.evaluate(`getComputedStyle(document.querySelector('.hook-message-hidden')).display`),
      "block",
    );

    // Search narrows the tree (the shown leaf always stays); filters too.
    await page.evaluate(
      `(() => { const s = document.getElementById('tree-search'); s.value = 'changelog'; s.dispatchEvent(new Event('input')); })()`,
    );
    assertEquals(await page.evaluate(visibleNodes), ["e0000018", "e0000020", "e0000021", "e0000022"]);
    await page.evaluate(
      `(() => { const s = document.getElementById('tree-search'); s.value = ''; s.dispatchEvent(new Event('input')); })()`,
    );
    await page.evaluate(`document.querySelector('.filter-btn[data-filter="user-only"]').click()`);
    assertEquals(await page.evaluate(visibleNodes), ["e0000003", "e0000017", "e0000018", "e0000020"]);
    await page.evaluate(`document.querySelector('.filter-btn[data-filter="labeled-only"]').click()`);
    assertEquals(await page.evaluate(visibleNodes), ["e0000013", "e0000018"]);

    // Esc clears the search and goes back to the leaf the page opened on.
    await page.evaluate(
      `(() => { const s = document.getElementById('tree-search'); s.value = 'deploy'; s.dispatchEvent(new Event('input')); })()`,
    );
    await page.evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))`);
    assertEquals(await page.evaluate(`document.getElementById('tree-search').value`), "");
    assert((await page.evaluate<string>(messagesText)).includes("Changelog written."));

    // A deep link opens its branch and scrolls its entry into view.
    await page.navigate(`${url}?leafId=e0000018&targetId=e0000013`);
    assert((await page.evaluate<string>(messagesText)).includes("Deployed."));
    assertEquals(await page.evaluate(`document.querySelector('.entry.target').dataset.entryId`), "e0000013");
    assert(await page.evaluate<number>(`document.getElementById('content').scrollTop`) > 0);
    // In view (the page cannot scroll it further up: little follows it on this branch).
    const [top, bottom, height] = await page.evaluate<number[]>(
      `(() => { const r = document.getElementById('entry-e0000013').getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })()`,
    );
    assert(top >= 0 && bottom <= height, `target at ${top}..${bottom}px of ${height}px`);

    // Nothing left the page: only the file itself and inline data.
    const outside = page.requests.filter((r) => !r.startsWith("file://") && !r.startsWith("data:"));
    assertEquals(outside, []);
    const png = await page.screenshot();
    assertEquals([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert(png.length > 10_000, `screenshot of ${png.length} bytes`);
  } finally {
    await page.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HTML-03 a prompt that invoked a skill shows the skill as its own block and the user's words as the message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-export-skill-" });
  const page = await openBrowserPage();
  try {
    const header = {
      type: "session",
      version: 3,
      id: "5k111000-0000-7000-8000-000000000001",
      timestamp: "2026-11-30T10:00:00.000Z",
      cwd: "/home/user/project",
    };
    const text =
      '<skill name="deploy" location="/home/user/.pi/agent/skills/deploy/SKILL.md">\nRun the deploy script.\n</skill>\n\nship the release';
    const user = {
      type: "message",
      id: "s0000001",
      parentId: null,
      timestamp: "2026-11-30T10:01:00.000Z",
      message: { role: "user", content: text, timestamp: 1 },
    };
    await Deno.writeTextFile(`${dir}/skill.jsonl`, `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`);
    const r = await spawnPi(["--export", `${dir}/skill.jsonl`, `${dir}/skill.html`], {
      cwd: dir,
      env: { HOME: dir, PI_CODING_AGENT_DIR: `${dir}/agent`, NO_COLOR: "1", PATH: "/usr/bin:/bin" },
    });
    assertEquals(r.code, 0, r.stderr);
    await page.navigate(`file://${dir}/skill.html`);
    assertEquals(
      await page.evaluate(`document.querySelector('.skill-invocation-label').textContent`),
      "skill: deploy",
    );
    assertEquals(
      await page.evaluate(`document.querySelector('.user-message .markdown-content').textContent.trim()`),
      "ship the release",
    );
    assertEquals(
      await page.evaluate(`document.querySelector('.tree-node').textContent`),
      "•skill: deploy · user: ship the release",
    );
  } finally {
    await page.close();
    await Deno.remove(dir, { recursive: true });
  }
});
