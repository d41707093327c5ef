/**
 * A stand-in Radius gateway on 127.0.0.1 for `/share` (and other uploads to Radius): it records
 * every request (method, path with query, headers, body) and answers with `answer`, by default an
 * artifact whose canonical URL is {@link FAKE_ARTIFACT_URL}. Point pi at it with
 * `PI_RADIUS_GATEWAY=<url>`.
 *
 * @module
 */

/** The link the default answer gives. */
export const FAKE_ARTIFACT_URL = "https://radius.example/artifacts/a1b2c3";

/** One request the gateway received. */
export interface GatewayRequest {
  method: string;
  /** Path and query, e.g. `/v1/artifacts?visibility=organization&title=Pi+session`. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A running fake gateway. */
export interface FakeRadiusGateway {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** What was received, in order. */
  readonly requests: GatewayRequest[];
  /** The reply to each request; replace it to answer errors or to hang. */
  answer: (request: GatewayRequest) => Response | Promise<Response>;
  /** Stops the server (ends hanging answers first). */
  close(): Promise<void>;
}

/** The default answer: 1.6.0's artifact reply. */
export function artifactAnswer(): Response {
  return Response.json({ artifact: { canonical_url: FAKE_ARTIFACT_URL } });
}

/** Starts a gateway on a free port of 127.0.0.1. */
export function startFakeRadiusGateway(): FakeRadiusGateway {
  const requests: GatewayRequest[] = [];
  const closing = Promise.withResolvers<void>();
  const gateway: FakeRadiusGateway = {
    url: "",
    requests,
    answer: artifactAnswer,
    close: async () => {
      closing.resolve();
      await server.shutdown();
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const record: GatewayRequest = {
      method: req.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
    };
    requests.push(record);
    return await Promise.race([
      Promise.resolve(gateway.answer(record)),
      closing.promise.then(() => new Response("closed", { status: 503 })),
    ]);
  });
  (gateway as { url: string }).url = `http://127.0.0.1:${server.addr.port}`;
  return gateway;
}

/** An answer that never comes (until the gateway closes): the upload waits. */
export function hangingAnswer(): Promise<Response> {
  return new Promise<Response>(() => {});
}
