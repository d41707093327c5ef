/**
 * Runs text utilities in a fresh process that counts how many `Intl.Segmenter`s get built (each
 * costs ICU data loading), so tests can hold the kit to building none where text needs none.
 *
 * @module
 */

/**
 * Evaluates `body` (JavaScript) in a fresh Deno process where `U` is src/tui/utils.ts, `built()`
 * the number of segmenters built so far, and `report(value)` prints the result; returns that value.
 */
export async function runCountingSegmenters(body: string): Promise<unknown> {
  const utils = new URL("../../src/tui/utils.ts", import.meta.url).href;
  const script = `
    let count = 0;
    const Real = Intl.Segmenter;
    Intl.Segmenter = class extends Real { constructor(...a) { super(...a); count++; } };
    const built = () => count;
    const report = (value) => console.log(JSON.stringify(value));
    const U = await import(${JSON.stringify(utils)});
    ${body}`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=js", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
