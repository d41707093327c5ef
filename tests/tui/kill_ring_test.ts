/** The kill ring of src/tui/kill_ring.ts, with pi-tui 1.6.0's KillRing semantics. */
import { assertEquals } from "../support/assert.ts";
import { KillRing } from "../../src/tui/kill_ring.ts";

Deno.test("kills become entries; the newest is the one a yank takes", () => {
  const ring = new KillRing();
  assertEquals(ring.peek(), undefined);
  assertEquals(ring.length, 0);
  ring.push("one", { prepend: false });
  ring.push("two", { prepend: true });
  assertEquals(ring.peek(), "two");
  assertEquals(ring.length, 2);
});

Deno.test("empty kills are not recorded", () => {
  const ring = new KillRing();
  ring.push("", { prepend: false });
  ring.push("", { prepend: false, accumulate: true });
  assertEquals(ring.length, 0);
});

Deno.test("consecutive kills accumulate: forward ones append, backward ones prepend", () => {
  const ring = new KillRing();
  ring.push("world", { prepend: false });
  ring.push("!", { prepend: false, accumulate: true });
  ring.push("hello ", { prepend: true, accumulate: true });
  assertEquals(ring.peek(), "hello world!");
  assertEquals(ring.length, 1);
});

Deno.test("accumulating into an empty ring starts an entry", () => {
  const ring = new KillRing();
  ring.push("x", { prepend: true, accumulate: true });
  assertEquals([ring.peek(), ring.length], ["x", 1]);
});

Deno.test("rotate cycles the entries for yank-pop, newest to the back", () => {
  const ring = new KillRing();
  for (const t of ["a", "b", "c"]) ring.push(t, { prepend: false });
  const seen: (string | undefined)[] = [];
  for (let i = 0; i < 4; i++) {
    seen.push(ring.peek());
    ring.rotate();
  }
  assertEquals(seen, ["c", "b", "a", "c"]);
  assertEquals(ring.length, 3);
});

Deno.test("rotating a ring of one entry leaves it as it is", () => {
  const ring = new KillRing();
  ring.rotate();
  ring.push("only", { prepend: false });
  ring.rotate();
  assertEquals([ring.peek(), ring.length], ["only", 1]);
});
