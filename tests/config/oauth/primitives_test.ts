/**
 * The shared OAuth building blocks (AUTH-04): PKCE, trusted URLs, the device-code polling loop and
 * the loopback callback server with its manual-code race.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../../support/assert.ts";
import { base64UrlEncode, generatePkce, pkceChallenge } from "../../../src/config/oauth/pkce.ts";
import { trustedHttpUrl } from "../../../src/config/oauth/trusted_url.ts";
import {
  abortableSleep,
  DEVICE_FLOW_CANCELLED,
  DEVICE_FLOW_TIMED_OUT,
  DEVICE_FLOW_TIMED_OUT_SLOW_DOWN,
  type DeviceCodePollResult,
  pollDeviceCodeFlow,
} from "../../../src/config/oauth/device_code.ts";
import {
  type ManualCodeInput,
  startOAuthCallbackServer,
  waitForCallbackOrManualInput,
} from "../../../src/config/oauth/callback_server.ts";

Deno.test("AUTH-04 PKCE: RFC 7636 appendix B example challenge, fresh 43-char verifiers", async () => {
  // The RFC's own example pair.
  assertEquals(
    await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
    "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  );
  const a = await generatePkce();
  const b = await generatePkce();
  assertMatch(a.verifier, /^[A-Za-z0-9_-]{43}$/);
  assert(a.verifier !== b.verifier);
  assertEquals(a.challenge, await pkceChallenge(a.verifier));
  assertEquals(base64UrlEncode(new Uint8Array([0xfb, 0xff])), "-_8");
});

Deno.test("AUTH-04 trustedHttpUrl keeps http(s) only and normalizes", () => {
  assertEquals(trustedHttpUrl("https://example.com/device"), "https://example.com/device");
  assertEquals(trustedHttpUrl("http://EXAMPLE.com/a b"), "http://example.com/a%20b");
  assertEquals(trustedHttpUrl("file:///etc/passwd"), null);
  assertEquals(trustedHttpUrl("javascript:alert(1)"), null);
  assertEquals(trustedHttpUrl("not a url"), null);
  assertEquals(trustedHttpUrl(42), null);
});

Deno.test("AUTH-04 device polling: pending then complete, slow_down raises the interval", async () => {
  const replies: DeviceCodePollResult<string>[] = [
    { status: "pending" },
    { status: "slow_down", intervalSeconds: 1.2 },
    { status: "complete", value: "token" },
  ];
  const times: number[] = [];
  const value = await pollDeviceCodeFlow({
    intervalSeconds: 0, // clamped to the 1 s minimum
    poll: () => {
      times.push(Date.now());
      return Promise.resolve(replies.shift()!);
    },
    signal: new AbortController().signal,
  });
  assertEquals(value, "token");
  assertEquals(times.length, 3);
  assert(times[1] - times[0] >= 990, `first gap ${times[1] - times[0]}`);
  assert(times[2] - times[1] >= 1190, `gap after slow_down ${times[2] - times[1]}`);
});

Deno.test("AUTH-04 device polling: failed throws its message; expiry names slow_down; abort cancels", async () => {
  const signal = new AbortController().signal;
  await assertRejects(
    () =>
      pollDeviceCodeFlow({
        poll: () => Promise.resolve({ status: "failed", message: "access_denied" }),
        signal,
      }),
    "access_denied",
  );
  const plain = await assertRejects(
    () =>
      pollDeviceCodeFlow({
        expiresInSeconds: 0.05,
        poll: () => Promise.resolve({ status: "pending" }),
        signal,
      }),
  );
  assertEquals(plain.message, DEVICE_FLOW_TIMED_OUT);
  const slow = await assertRejects(
    () =>
      pollDeviceCodeFlow({
        expiresInSeconds: 0.05,
        poll: () => Promise.resolve({ status: "slow_down" }),
        signal,
      }),
  );
  assertEquals(slow.message, DEVICE_FLOW_TIMED_OUT_SLOW_DOWN);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  const cancelled = await assertRejects(() =>
    pollDeviceCodeFlow({
      intervalSeconds: 60,
      poll: () => Promise.resolve({ status: "pending" }),
      signal: controller.signal,
    })
  );
  assertEquals(cancelled.message, DEVICE_FLOW_CANCELLED);
  await assertRejects(() => abortableSleep(10, AbortSignal.abort(), "gone"), "gone");
});

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

Deno.test("AUTH-04 callback server: wrong path 404, bad state 400, code completes once, then 409", async () => {
  const server = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/callback",
    redirectHost: "localhost",
    state: "s1",
    complete: (code) => Promise.resolve(`done:${code}`),
  });
  try {
    assertMatch(server.redirectUri, /^http:\/\/localhost:\d+\/callback$/);
    const base = server.redirectUri.replace("localhost", "127.0.0.1");
    assertEquals((await get(base.replace("/callback", "/other"))).status, 404);
    const mismatch = await get(`${base}?code=c&state=zz`);
    assertEquals(mismatch.status, 400);
    assertStringIncludes(mismatch.body, "State mismatch.");
    assertEquals((await get(`${base}?state=s1`)).status, 400);
    const ok = await get(`${base}?code=abc&state=s1`);
    assertEquals(ok.status, 200);
    assertStringIncludes(ok.body, "Authentication successful");
    assertStringIncludes(ok.body, "Signed in to Example. You may now close this page.");
    assertEquals(await server.wait(), "done:abc");
    assertEquals((await get(`${base}?code=again&state=s1`)).status, 409);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 callback server: provider error and failed completion reject the wait, page escapes HTML", async () => {
  const denied = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    complete: (code) => Promise.resolve(code),
  });
  try {
    const waiting = denied.wait();
    waiting.catch(() => {});
    const page = await get(`${denied.redirectUri}?error=access_denied&error_description=%3Cb%3Eno%3C%2Fb%3E`);
    assertEquals(page.status, 400);
    assertStringIncludes(page.body, "&lt;b&gt;no&lt;/b&gt;");
    await assertRejects(() => waiting, "Example authorization failed: <b>no</b>");
  } finally {
    await denied.close();
  }
  const failing = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    complete: () => Promise.reject(new Error("exchange refused")),
  });
  try {
    const waiting = failing.wait();
    waiting.catch(() => {});
    const page = await get(`${failing.redirectUri}?code=x`);
    assertEquals(page.status, 502);
    assertStringIncludes(page.body, "Example sign-in failed.");
    await assertRejects(() => waiting, "exchange refused");
  } finally {
    await failing.close();
  }
});

Deno.test("AUTH-04 callback server: busy port rejects, abort and timeout reject the wait", async () => {
  const first = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    complete: (code) => Promise.resolve(code),
  });
  const port = Number(new URL(first.redirectUri).port);
  try {
    await assertRejects(() =>
      startOAuthCallbackServer({
        providerName: "Example",
        host: "127.0.0.1",
        port,
        path: "/cb",
        complete: (code) => Promise.resolve(code),
      })
    );
  } finally {
    await first.close();
  }
  await assertRejects(
    () =>
      startOAuthCallbackServer({
        providerName: "Example",
        host: "127.0.0.1",
        port: 0,
        path: "/cb",
        signal: AbortSignal.abort(),
        complete: (code) => Promise.resolve(code),
      }),
    "Login cancelled",
  );
  const controller = new AbortController();
  const aborted = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    signal: controller.signal,
    complete: (code) => Promise.resolve(code),
  });
  controller.abort();
  await assertRejects(() => aborted.wait(), "Login cancelled");
  await aborted.close();
  const slow = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    timeoutMs: 20,
    complete: (code) => Promise.resolve(code),
  });
  await assertRejects(() => slow.wait(), "Example sign-in timed out");
  await slow.close();
});

Deno.test("AUTH-04 callback or manual: pasted code cancels the callback; callback aborts the prompt", async () => {
  const server = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    complete: (code) => Promise.resolve(code),
  });
  try {
    const pasted = await waitForCallbackOrManualInput(
      () => Promise.resolve("pasted-code"),
      server,
      { message: "Paste", placeholder: "x" },
    );
    assertEquals(pasted, { type: "manual", input: "pasted-code" });
  } finally {
    await server.close();
  }
  const second = await startOAuthCallbackServer({
    providerName: "Example",
    host: "127.0.0.1",
    port: 0,
    path: "/cb",
    complete: (code) => Promise.resolve(`v-${code}`),
  });
  try {
    let promptAborted = false;
    const manual: ManualCodeInput = ({ signal }) =>
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => {
          promptAborted = true;
          reject(new Error("prompt closed"));
        });
      });
    const racing = waitForCallbackOrManualInput(manual, second, { message: "Paste", placeholder: "x" });
    await get(`${second.redirectUri}?code=zz`);
    assertEquals(await racing, { type: "callback", value: "v-zz" });
    assert(promptAborted);
  } finally {
    await second.close();
  }
  await assertRejects(
    () =>
      waitForCallbackOrManualInput(() => Promise.reject(new Error("Login cancelled")), undefined, {
        message: "m",
        placeholder: "p",
      }),
    "Login cancelled",
  );
});
