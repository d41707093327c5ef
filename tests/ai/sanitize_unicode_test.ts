import { sanitizeSurrogates } from "../../src/ai/sanitize_unicode.ts";
import { assertEquals } from "../support/assert.ts";

Deno.test("sanitizeSurrogates drops lone surrogates and keeps paired ones", () => {
  assertEquals(sanitizeSurrogates("Hello 🙈 World"), "Hello 🙈 World");
  assertEquals(sanitizeSurrogates(`Text ${String.fromCharCode(0xd83d)} here`), "Text  here");
  assertEquals(sanitizeSurrogates(`a${String.fromCharCode(0xdc00)}b`), "ab");
  assertEquals(sanitizeSurrogates(`${String.fromCharCode(0xdc00)}${String.fromCharCode(0xd800)}`), "");
  assertEquals(JSON.stringify(sanitizeSurrogates("é\u0000x")), JSON.stringify("é\u0000x"));
});
