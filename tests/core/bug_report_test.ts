/**
 * The parts of pi 1.6.0's bug report that do not depend on the screen, beside 1.6.0's own functions
 * run under the reference's node (tests/fixtures/bug_report/capture_bug_report.mjs) on the same
 * cases: secrets removed from URLs and JSON values, the failed-turn diagnostics of a session file,
 * the report's files, and the multipart upload to a fake Radius gateway (the parts sent, the token,
 * the id answered, the refused upload's text).
 */
import { assertEquals } from "../support/assert.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import {
  type BugReportBundle,
  bugReportFiles,
  collectBugReportDiagnostics,
  redactJsonValue,
  redactUrl,
  uploadBugReport,
} from "../../src/core/bug_report.ts";
import { type GatewayRequest, startFakeRadiusGateway } from "../support/fake_radius_gateway.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const CASES = `${FIXTURES}bug_report/cases.json`;
const CAPTURE = `${FIXTURES}bug_report/capture_bug_report.mjs`;
const SESSION = `${FIXTURES}sessions/edits.jsonl`;

interface Cases {
  urls: string[];
  values: unknown[];
  crashes: Record<string, unknown>[];
  bundle: BugReportBundle;
  tokens: string[];
}

async function reference(gateway: string) {
  const ref = requireReference();
  const out = await new Deno.Command(ref.node, {
    args: [CAPTURE, CASES, SESSION, gateway],
    env: { PI_REFERENCE_DIR: ref.nodeModules.replace(/\/node_modules$/, "") },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout).trim());
}

/** The parts of a multipart request: name, file name, type and text, in order. */
async function parts(request: GatewayRequest) {
  const form = await new Response(request.body, {
    headers: { "content-type": request.headers["content-type"] },
  })
    .formData();
  const found = [];
  for (const [name, value] of form.entries()) {
    const file = value as File;
    found.push({ name, fileName: file.name, type: file.type, text: await file.text() });
  }
  return {
    method: request.method,
    path: request.path,
    authorization: request.headers.authorization,
    parts: found,
  };
}

Deno.test("/bug (1.6.0) report parts: redaction, diagnostics, files and the upload equal pi 1.6.0's", async () => {
  const cases = JSON.parse(await Deno.readTextFile(CASES)) as Cases;
  const gateway = startFakeRadiusGateway();
  gateway.answer = (request) =>
    request.headers.authorization
      ? Response.json({ ok: true, bug_report: { id: "bug-42" } })
      : Response.json({ ok: false, description: "anonymous reports are closed" }, { status: 403 });
  try {
    const theirs = await reference(gateway.url);
    const manager = SessionManager.open(SESSION);
    const upload = [];
    for (const token of cases.tokens) {
      try {
        upload.push(
          await uploadBugReport(cases.bundle, { token: token || undefined, gatewayUrl: gateway.url }),
        );
      } catch (error) {
        upload.push({ error: (error as Error).message });
      }
    }
    const ours = {
      urls: cases.urls.map(redactUrl),
      values: cases.values.map(redactJsonValue),
      diagnostics: collectBugReportDiagnostics(manager.getSessionId(), manager.getEntries(), cases.crashes),
      files: bugReportFiles(cases.bundle),
      upload,
    };
    assertEquals(ours, theirs);
    assertEquals(ours.upload, [{ id: "bug-42" }, {
      error: "Bug report upload failed: anonymous reports are closed",
    }]);
    assertEquals(ours.diagnostics.assistant.length > 0, true);
    assertEquals(gateway.requests.length, 4);
    const [refWithToken, refAnonymous, ourWithToken, ourAnonymous] = await Promise.all(
      gateway.requests.map(parts),
    );
    assertEquals(ourWithToken, refWithToken);
    assertEquals(ourAnonymous, refAnonymous);
    assertEquals(ourWithToken.authorization, "Bearer radius-token");
    assertEquals(ourWithToken.parts.map((p) => p.name), [
      "report.json",
      "diagnostics.json",
      "session.jsonl",
      "summary.md",
    ]);
  } finally {
    await gateway.close();
  }
});
