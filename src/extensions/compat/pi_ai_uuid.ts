/**
 * pi-ai's `uuidv7` for the extension view: our session-id generator, which is the same thing
 * (a UUIDv7 that stays ordered within one millisecond). Its own file so host_parts.ts can map the
 * 1.6.0 name to a part that exports it under that name.
 *
 * @module
 */
export { createSessionId as uuidv7 } from "../../session/ids.ts";
