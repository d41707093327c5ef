/**
 * Decoder of AWS's binary `application/vnd.amazon.eventstream` framing, which Bedrock's
 * ConverseStream answers with. Each message is a 12-byte prelude (total length, headers length,
 * CRC32 of those 8 bytes), typed headers, a payload and a CRC32 of everything before it. Both
 * checksums are verified: a corrupt or cut-off frame is an {@link EventStreamError} saying so,
 * never a silently wrong event.
 *
 * @module
 */

/** A decoded header value (strings, integers, booleans, byte arrays; timestamps as ms numbers). */
export type EventStreamHeaderValue = string | number | boolean | Uint8Array;

/** One decoded message. */
export interface EventStreamMessage {
  /** Headers by name, e.g. `:event-type`, `:message-type`, `:exception-type`. */
  headers: Record<string, EventStreamHeaderValue>;
  /** The raw payload (JSON for Bedrock's events). */
  payload: Uint8Array;
}

/** A malformed, corrupt or truncated event stream. */
export class EventStreamError extends Error {
  override name = "EventStreamError";
}

const PRELUDE_LENGTH = 12;
const CHECKSUM_LENGTH = 4;
const MIN_MESSAGE_LENGTH = PRELUDE_LENGTH + CHECKSUM_LENGTH;
// AWS caps a message at 16 MiB; anything larger is a garbled length, not a real frame.
const MAX_MESSAGE_LENGTH = 16 * 1024 * 1024;

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib) of `bytes`, continuing from `previous`. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, "0")}`;
}

function decodeHeaders(bytes: Uint8Array): Record<string, EventStreamHeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder();
  const headers: Record<string, EventStreamHeaderValue> = {};
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) {
      throw new EventStreamError("Bedrock event stream: a header runs past its frame");
    }
  };
  while (at < bytes.length) {
    need(1);
    const nameLength = bytes[at++];
    need(nameLength + 1);
    const name = text.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = bytes[at++];
    let value: EventStreamHeaderValue;
    switch (type) {
      case 0:
      case 1:
        value = type === 0;
        break;
      case 2:
        need(1);
        value = view.getInt8(at);
        at += 1;
        break;
      case 3:
        need(2);
        value = view.getInt16(at);
        at += 2;
        break;
      case 4:
        need(4);
        value = view.getInt32(at);
        at += 4;
        break;
      case 5:
      case 8: // timestamp: ms since the epoch
        need(8);
        value = Number(view.getBigInt64(at));
        at += 8;
        break;
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const raw = bytes.subarray(at, at + length);
        value = type === 7 ? text.decode(raw) : raw.slice();
        at += length;
        break;
      }
      case 9:
        need(16);
        value = bytes.slice(at, at + 16);
        at += 16;
        break;
      default:
        throw new EventStreamError(`Bedrock event stream: unknown header type ${type} for "${name}"`);
    }
    headers[name] = value;
  }
  return headers;
}

/** Decodes one complete frame (exactly `totalLength` bytes), verifying both checksums. */
export function decodeFrame(frame: Uint8Array): EventStreamMessage {
  if (frame.length < MIN_MESSAGE_LENGTH) {
    throw new EventStreamError(`Bedrock event stream: a frame of ${frame.length} bytes is too short`);
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const totalLength = view.getUint32(0);
  const headersLength = view.getUint32(4);
  const preludeCrc = view.getUint32(8);
  const expectedPrelude = crc32(frame.subarray(0, 8));
  if (preludeCrc !== expectedPrelude) {
    throw new EventStreamError(
      `Bedrock event stream: corrupt frame (prelude checksum ${hex(preludeCrc)}, computed ${
        hex(expectedPrelude)
      })`,
    );
  }
  if (totalLength !== frame.length || PRELUDE_LENGTH + headersLength + CHECKSUM_LENGTH > totalLength) {
    throw new EventStreamError(
      `Bedrock event stream: inconsistent frame lengths (${totalLength}/${headersLength})`,
    );
  }
  const messageCrc = view.getUint32(totalLength - CHECKSUM_LENGTH);
  const expectedMessage = crc32(frame.subarray(0, totalLength - CHECKSUM_LENGTH));
  if (messageCrc !== expectedMessage) {
    throw new EventStreamError(
      `Bedrock event stream: corrupt frame (message checksum ${hex(messageCrc)}, computed ${
        hex(expectedMessage)
      })`,
    );
  }
  const headersEnd = PRELUDE_LENGTH + headersLength;
  return {
    headers: decodeHeaders(frame.subarray(PRELUDE_LENGTH, headersEnd)),
    payload: frame.slice(headersEnd, totalLength - CHECKSUM_LENGTH),
  };
}

/**
 * Splits a byte stream into decoded messages. Bytes left over when the body ends (a frame cut
 * off) are an error, as is a prelude whose length field is impossible.
 */
export async function* readEventStream(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<EventStreamMessage> {
  let buffer: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    if (buffer.length === 0) buffer = chunk;
    else {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      buffer = joined;
    }
    while (buffer.length >= PRELUDE_LENGTH) {
      const totalLength = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength).getUint32(0);
      if (totalLength < MIN_MESSAGE_LENGTH || totalLength > MAX_MESSAGE_LENGTH) {
        // Check the prelude first: a bad CRC explains a garbled length better than the length does.
        const preludeCrc = new DataView(buffer.buffer, buffer.byteOffset).getUint32(8);
        if (preludeCrc !== crc32(buffer.subarray(0, 8))) decodeFrame(buffer.subarray(0, PRELUDE_LENGTH + 4));
        throw new EventStreamError(`Bedrock event stream: impossible frame length ${totalLength}`);
      }
      if (buffer.length < totalLength) break;
      yield decodeFrame(buffer.subarray(0, totalLength));
      buffer = buffer.subarray(totalLength);
    }
  }
  if (buffer.length > 0) {
    throw new EventStreamError(
      `Bedrock event stream ended inside a frame (${buffer.length} bytes of an incomplete message)`,
    );
  }
}
