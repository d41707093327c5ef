// Preloaded into the reference pi (`node --import <this file> cli.js …`) by the OAuth tests: sends the
// Anthropic OAuth requests of pi 1.6.0 (its token URL is a constant) to the fake OAuth server named by
// PI_ANTHROPIC_OAUTH_URL, keeping path and query — the same variable our build reads. pi 1.6.0 installs
// undici's fetch as the global one after start-up, so the global is an accessor that wraps whatever
// function is assigned to it.
const origin = process.env.PI_ANTHROPIC_OAUTH_URL;
const hosts = new Set(["platform.claude.com", "claude.ai"]);
const wrapped = Symbol("oauth redirect");

function wrap(fetchImpl) {
  if (typeof fetchImpl !== "function" || fetchImpl[wrapped]) return fetchImpl;
  const redirecting = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url);
    if (!hosts.has(parsed.hostname)) return fetchImpl(input, init);
    return fetchImpl(`${origin.replace(/\/+$/, "")}${parsed.pathname}${parsed.search}`, init);
  };
  redirecting[wrapped] = true;
  return redirecting;
}

if (origin) {
  let current = wrap(globalThis.fetch);
  Object.defineProperty(globalThis, "fetch", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (next) => {
      current = wrap(next);
    },
  });
}
