/**
 * Conformance of the Program Status Protocol encoder (OSC 7501) with pi-tui 1.6.0: states, app
 * names, the blocked kind, messages with control characters and multi-byte text cut at the 2048-byte
 * limit, and the feature-detection reply.
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";
import { formatProgramStatus } from "../../src/tui/program_status.ts";

const STATUSES: Record<string, string> = {
  "idle": `{ state: "idle" }`,
  "working-app": `{ state: "working", app: "pi" }`,
  "done-app-chars": `{ state: "done", app: "pi_coding-agent.v1+x" }`,
  "error-app-too-long": `{ state: "error", app: "a".repeat(33) }`,
  "app-32": `{ state: "idle", app: "b".repeat(32) }`,
  "app-space": `{ state: "idle", app: "my app" }`,
  "app-empty": `{ state: "idle", app: "" }`,
  "app-colon": `{ state: "idle", app: "a:b" }`,
  "blocked-permission": `{ state: "blocked", kind: "permission", message: "Allow bash?" }`,
  "blocked-no-kind": `{ state: "blocked" }`,
  "working-kind-ignored": `{ state: "working", kind: "question" }`,
  "clear": `{ state: "clear", app: "pi", message: "bye" }`,
  "message-controls": `{ state: "working", message: "line1\\nline2\\ttab\\x1b[31mred\\x07\\u009b" }`,
  "message-spaces": `{ state: "done", message: "   \\n\\t  " }`,
  "message-trim": `{ state: "done", message: "  ok  " }`,
  "message-unicode": `{ state: "done", message: "完成 ✅ 👍🏽 café" }`,
  "message-2048-ascii": `{ state: "working", message: "x".repeat(2048) }`,
  "message-2049-ascii": `{ state: "working", message: "x".repeat(2049) }`,
  "message-cut-multibyte": `{ state: "working", message: "x".repeat(2046) + "é€" }`,
  "message-cut-emoji": `{ state: "working", message: "y".repeat(2045) + "😀z" }`,
  "message-lone-surrogate": `{ state: "error", message: "bad \\ud800 surrogate" }`,
  "message-long-cjk": `{ state: "idle", message: "汉".repeat(1000) }`,
};

function cases(): TuiCase[] {
  const out: TuiCase[] = Object.entries(STATUSES).map(([label, status]) => ({
    name: `status/${label}`,
    body: `return T.formatProgramStatus(${status});`,
  }));
  const load = loadInternal("P", "program-status.js", "program_status.ts");
  const replies = [
    "\x1b]7501;?\x1b\\",
    "\x1b]7501;?\x07",
    "\x1b]7501;?state=idle:v=2\x1b\\",
    "\x1b]7501;state=idle\x1b\\",
    "\x1b]7501;?",
    "x\x1b]7501;?\x07",
    "\x1b]7501;?a\x1bb\x07",
  ];
  out.push({
    name: "reply/detection",
    body: `${load}return [P.PROGRAM_STATUS_QUERY, ...${js(replies)}.map((r) => P.isProgramStatusReply(r))];`,
  });
  return out;
}

Deno.test("formatProgramStatus and the OSC 7501 reply match pi-tui 1.6.0", async () => {
  await compareWithPiTui("program_status", cases());
});

Deno.test("a status message is base64 of its UTF-8 after control characters become spaces", () => {
  assertEquals(
    formatProgramStatus({ state: "blocked", app: "pi", kind: "question", message: "a\nb" }),
    `\x1b]7501;state=blocked:app=pi:kind=question:msg=${btoa("a b")}\x1b\\`,
  );
});
