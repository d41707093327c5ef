// Runs TUI conformance cases against one implementation of the pi-tui API and prints their results
// as JSON. The same file runs under Node (argv[2] = a URL of the real pi-tui's index.js) and under
// Deno (argv[2] = a URL of src/tui/mod.ts), so both sides execute the very same case bodies.
// Input on stdin: [{ "name": string, "body": string }]; `body` is the body of an async function
// that receives the module namespace as `T` and returns a JSON-serialisable value.
const moduleUrl = process.argv[2];
const T = await import(moduleUrl);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const results = {};
for (const c of cases) {
  try {
    const fn = new AsyncFunction("T", c.body);
    results[c.name] = { value: await fn(T) };
  } catch (error) {
    results[c.name] = { error: String(error instanceof Error ? error.message : error) };
  }
}
// Exit only once the write is flushed: Node's process.exit() cuts a piped write over 64 KiB short.
process.stdout.write(JSON.stringify(results), () => process.exit(0));
