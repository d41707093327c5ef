/**
 * Notices of a session's built-in services (MCP) for the interactive mode. pi 1.6.0's built-in
 * extensions tell the user through `ctx.ui.notify`, which the TUI shows in its chat; here those
 * services start before the screen exists, so what they post waits until the interactive mode
 * names where notices go, and then goes there directly.
 *
 * @module
 */

/** How bad a notice is (the levels of `ctx.ui.notify`). */
export type SessionNoticeLevel = "info" | "warning" | "error";

/** Where a session's notices are shown. */
export type SessionNoticeSink = (message: string, level: SessionNoticeLevel) => void;

interface Channel {
  held: { message: string; level: SessionNoticeLevel }[];
  sink?: SessionNoticeSink;
}

const channels = new WeakMap<object, Channel>();

function channelOf(session: object): Channel {
  let channel = channels.get(session);
  if (!channel) {
    channel = { held: [] };
    channels.set(session, channel);
  }
  return channel;
}

/** Shows `message` for `session`, or keeps it until {@link attachSessionNotices}. */
export function postSessionNotice(session: object, message: string, level: SessionNoticeLevel): void {
  const channel = channelOf(session);
  if (channel.sink) channel.sink(message, level);
  else channel.held.push({ message, level });
}

/** Sends `session`'s notices to `sink` from now on, the held ones first. */
export function attachSessionNotices(session: object, sink: SessionNoticeSink): void {
  const channel = channelOf(session);
  channel.sink = sink;
  for (const notice of channel.held.splice(0)) sink(notice.message, notice.level);
}
