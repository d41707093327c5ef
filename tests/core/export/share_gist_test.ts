/**
 * Sharing as a private gist through the real `gh` protocol, against a stand-in `gh` script on the
 * child's PATH: the calls 1.6.0 makes, the uploaded page, the viewer link; and each failure with
 * 1.6.0's text (gh missing, not logged in, gist creation failing, export failing). ID: TUI-05.
 */
import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { SessionManager } from "../../../src/session/session_manager.ts";
import { exportSessionToHtml } from "../../../src/core/export/export_html.ts";
import { ShareError, shareSessionAsGist } from "../../../src/core/export/share_gist.ts";

const FIXTURE = new URL("../../fixtures/export/rich.jsonl", import.meta.url).pathname;

const FAKE_GH = `#!/bin/sh
echo "$*" >> "$FAKE_GH_LOG"
case "$1" in
  auth) if [ -n "$FAKE_GH_LOGGED_OUT" ]; then echo "You are not logged into any GitHub hosts." >&2; exit 1; fi; exit 0 ;;
  gist)
    if [ -n "$FAKE_GH_OFFLINE" ]; then echo "error connecting to api.github.com" >&2; exit 1; fi
    cp "$4" "$FAKE_GH_UPLOAD"
    echo "https://gist.github.com/tester/0a1b2c3d4e5f"
    exit 0 ;;
esac
exit 2
`;

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "pi-share-test-" });
  await Deno.mkdir(`${dir}/bin`);
  await Deno.mkdir(`${dir}/empty`);
  await Deno.writeTextFile(`${dir}/bin/gh`, FAKE_GH);
  await Deno.chmod(`${dir}/bin/gh`, 0o755);
  await Deno.copyFile(FIXTURE, `${dir}/session.jsonl`);
  const manager = SessionManager.open(`${dir}/session.jsonl`);
  const session = { exportToHtml: (path?: string) => exportSessionToHtml(manager, undefined, path) };
  const env = (extra: Record<string, string> = {}) => ({
    PATH: `${dir}/bin:/usr/bin:/bin`,
    FAKE_GH_LOG: `${dir}/gh.log`,
    FAKE_GH_UPLOAD: `${dir}/uploaded.html`,
    ...extra,
  });
  const log = async () =>
    (await Deno.readTextFile(`${dir}/gh.log`).catch(() => "")).split("\n").filter(Boolean);
  return { dir, session, env, log };
}

Deno.test("TUI-05 /share: gh auth status, then gh gist create --public=false <page>; the viewer link and the gist", async () => {
  const t = await setup();
  try {
    const result = await shareSessionAsGist(t.session, {
      env: t.env(),
      viewerUrl: "https://pi.dev/session/",
    });
    assertEquals(result, {
      shareUrl: "https://pi.dev/session/#0a1b2c3d4e5f",
      gistUrl: "https://gist.github.com/tester/0a1b2c3d4e5f",
    });
    const calls = await t.log();
    assertEquals(calls[0], "auth status");
    assert(/^gist create --public=false \/.+\/pi-share-[^/]+\/session\.html$/.test(calls[1]), calls[1]);
    assertEquals(calls.length, 2);
    const page = await Deno.readTextFile(`${t.dir}/uploaded.html`);
    assert(
      page.startsWith("<!DOCTYPE html>") &&
        page.includes('<script id="session-data" type="application/json">'),
    );
    // The temporary folder is gone afterwards.
    const tempDir = calls[1].split(" ").pop()!.replace(/\/session\.html$/, "");
    assertEquals(await Deno.stat(tempDir).then(() => true, () => false), false);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("TUI-05 /share failures answer with 1.6.0's texts", async () => {
  const t = await setup();
  try {
    const fails = async (env: Record<string, string>, message: string, destination?: "radius") => {
      const error = await assertRejects(() => shareSessionAsGist(t.session, { env, destination }));
      assert(error instanceof ShareError);
      assertEquals(error.message, message);
    };
    await fails(
      { ...t.env(), PATH: `${t.dir}/empty` },
      "GitHub CLI (gh) is not installed. Install it from https://cli.github.com/",
    );
    await fails(
      t.env({ FAKE_GH_LOGGED_OUT: "1" }),
      "GitHub CLI is not logged in. Run 'gh auth login' first.",
    );
    await fails(t.env({ FAKE_GH_OFFLINE: "1" }), "Failed to create gist: error connecting to api.github.com");
    await fails(t.env(), "Radius authentication is not configured. Run '/login radius' first.", "radius");
    const broken = {
      exportToHtml: () => Promise.reject(new Error("Nothing to export yet - start a conversation first")),
    };
    assertEquals(
      (await assertRejects(() => shareSessionAsGist(broken, { env: t.env() }))).message,
      "Failed to export session: Nothing to export yet - start a conversation first",
    );
    assertEquals(await Deno.stat(`${t.dir}/uploaded.html`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(t.dir, { recursive: true });
  }
});
