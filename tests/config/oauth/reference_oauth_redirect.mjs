// Preloaded into the reference pi (`node --import <this file> cli.js …`) by the OAuth race test: sends
// the Anthropic OAuth requests of pi 1.6.0 (its token URL is a constant) to the fake OAuth server named
// by PI_ANTHROPIC_OAUTH_URL, keeping path and query — the same variable our build reads.
const origin = process.env.PI_ANTHROPIC_OAUTH_URL;
const hosts = new Set(["platform.claude.com", "claude.ai"]);
if (origin) {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url);
    if (!hosts.has(parsed.hostname)) return realFetch(input, init);
    return realFetch(`${origin.replace(/\/+$/, "")}${parsed.pathname}${parsed.search}`, init);
  };
}
