/**
 * A minimal HTTP proxy on 127.0.0.1 for tests of proxy settings: it accepts `CONNECT host:port`
 * tunnels (what Node's undici sends, also for http:// targets) and absolute-form requests
 * (`POST http://host:port/path`, what Deno's fetch sends for http:// targets), forwards the bytes
 * to the target, and records what each client asked for.
 *
 * @module
 */

/** One request the proxy received: the method and the target as the client wrote it. */
export interface ProxiedRequest {
  method: string;
  target: string;
}

/** A running test proxy. */
export interface TestProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Every request line received, in order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

const HEAD_END = new TextEncoder().encode("\r\n\r\n");

function indexOfHeadEnd(bytes: Uint8Array): number {
  outer: for (let i = 0; i + HEAD_END.length <= bytes.length; i++) {
    for (let j = 0; j < HEAD_END.length; j++) if (bytes[i + j] !== HEAD_END[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function pipe(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  try {
    await from.readable.pipeTo(to.writable, { preventClose: true });
  } catch { /* either side went away */ }
  try {
    await to.closeWrite();
  } catch { /* already closed */ }
}

/** Starts the proxy on a random port. */
export function startTestProxy(): TestProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: ProxiedRequest[] = [];
  const conns = new Set<Deno.Conn>();

  async function serve(client: Deno.Conn): Promise<void> {
    conns.add(client);
    let upstream: Deno.Conn | undefined;
    try {
      // Read the request head (a proxy request's body, if any, follows it in `rest`).
      let buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
      const chunk = new Uint8Array(16384);
      let end = -1;
      while (end === -1) {
        const n = await client.read(chunk);
        if (n === null) return;
        buffer = concat(buffer, chunk.subarray(0, n));
        end = indexOfHeadEnd(buffer);
      }
      const head = new TextDecoder().decode(buffer.subarray(0, end));
      const rest = buffer.subarray(end + HEAD_END.length);
      const [requestLine, ...headerLines] = head.split("\r\n");
      const [method, target, version] = requestLine.split(" ");
      requests.push({ method, target });
      if (method === "CONNECT") {
        const [hostname, port] = target.split(":");
        upstream = await Deno.connect({ hostname, port: Number(port) });
        conns.add(upstream);
        await client.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
        if (rest.length > 0) await upstream.write(rest);
      } else {
        const url = new URL(target);
        upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
        conns.add(upstream);
        const lines = headerLines.filter((line) => !/^proxy-/i.test(line));
        const forwarded = `${method} ${url.pathname}${url.search} ${version}\r\n${
          lines.join("\r\n")
        }\r\n\r\n`;
        await upstream.write(concat(new TextEncoder().encode(forwarded), rest));
      }
      await Promise.all([pipe(client, upstream), pipe(upstream, client)]);
    } catch {
      /* a client or target that went away ends this connection only */
    } finally {
      for (const conn of [client, upstream]) {
        if (!conn) continue;
        conns.delete(conn);
        try {
          conn.close();
        } catch { /* already closed */ }
      }
    }
  }

  const accepting = (async () => {
    try {
      for await (const conn of listener) void serve(conn);
    } catch { /* listener closed */ }
  })();

  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    requests,
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      await accepting;
    },
  };
}
