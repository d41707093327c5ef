/**
 * The HTTP plumbing the fake AWS and Google credential endpoints share: a server on a free port
 * of 127.0.0.1 that records every request (method, path, query, lower-cased headers, body text)
 * before the fake's handler answers it.
 */

/** A request a fake saw. */
export interface CloudRequest {
  method: string;
  path: string;
  /** Path plus query string. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A running recording server. */
export interface RecordingServer {
  url: string;
  requests: CloudRequest[];
  close(): Promise<void>;
}

/** Serves `answer` on 127.0.0.1, recording each request first. */
export function serveRecording(
  answer: (request: CloudRequest) => Response | Promise<Response>,
): RecordingServer {
  const requests: CloudRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((value, key) => (headers[key] = value));
    const request = {
      method: req.method,
      path: url.pathname,
      url: url.pathname + url.search,
      headers,
      body: await req.text(),
    };
    requests.push(request);
    return await answer(request);
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    requests,
    close: () => server.shutdown(),
  };
}
