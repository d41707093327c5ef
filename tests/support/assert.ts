/**
 * Assertions for tests, on top of `node:assert/strict` (the Deno standard library is not
 * reachable from here). Names follow `@std/assert` so tests read the usual way.
 *
 * @module
 */
import assert from "node:assert/strict";

/** Deep, strict equality. */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): asserts actual is T {
  assert.deepStrictEqual(actual, expected, message as never);
}

/** Deep, strict inequality. */
export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  assert.notDeepStrictEqual(actual, expected, message as never);
}

/** Truthiness. */
export function assert_(value: unknown, message?: string): asserts value {
  assert.ok(value, message as never);
}
export { assert_ as assert };

/** The string matches the pattern. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  assert.match(actual, pattern, message as never);
}

/** The string contains the fragment. */
export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  if (!actual.includes(expected)) {
    assert.fail(
      message ?? `expected string to include ${JSON.stringify(expected)}\nactual: ${JSON.stringify(actual)}`,
    );
  }
}

/** The function throws; returns the error. Checks the message contains `includes` when given. */
export function assertThrows(fn: () => unknown, includes?: string): Error {
  try {
    fn();
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (includes !== undefined) assertStringIncludes(error.message, includes);
    return error;
  }
  assert.fail("expected function to throw");
}

/** The promise rejects; returns the error. Checks the message contains `includes` when given. */
export async function assertRejects(fn: () => Promise<unknown>, includes?: string): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (includes !== undefined) assertStringIncludes(error.message, includes);
    return error;
  }
  assert.fail("expected promise to reject");
}
