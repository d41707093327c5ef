/**
 * AWS Signature Version 4 for HTTP requests, on Web Crypto (no AWS SDK): the canonical request,
 * the string to sign, the derived key and the `Authorization` header, as AWS documents them.
 * Paths are URI-encoded twice (once on the wire, once in the canonical form), as every service
 * but S3 expects; Bedrock model ids with `:` depend on that.
 *
 * @module
 */

/** Credentials that sign a request. */
export interface AwsCredentials {
  /** Access key id (AKIA…/ASIA…). */
  accessKeyId: string;
  /** Secret access key; it never appears in a header or message. */
  secretAccessKey: string;
  /** Session token of temporary credentials, sent as `x-amz-security-token`. */
  sessionToken?: string;
}

/** One request to sign. */
export interface SigV4Request {
  method: string;
  /** Full URL; its path and query are signed, its host is the `host` header. */
  url: URL;
  /** Headers to sign besides `host`, `x-amz-date` and the session token (names in any case). */
  headers: Record<string, string>;
  /** The exact body bytes or text (empty when absent). */
  body?: Uint8Array | string;
}

/** What signing adds to a request. */
export interface SigV4Result {
  /** The headers to send: the given ones plus host, x-amz-date, token and authorization. */
  headers: Record<string, string>;
  /** `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`. */
  authorization: string;
  /** Hex signature alone. */
  signature: string;
  /** The canonical request (for tests and debugging; holds no secret). */
  canonicalRequest: string;
  /** The string that was signed. */
  stringToSign: string;
}

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function asBytes(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  return typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
}

/** Hex SHA-256 of `data`. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", asBytes(data)));
}

async function hmac(key: Uint8Array | string, data: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    asBytes(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data));
}

/** RFC 3986 encoding as SigV4 wants it: unreserved characters stay, everything else is %XX. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalPath(pathname: string): string {
  // `pathname` is already encoded once (as sent); each segment is encoded again.
  const path = pathname || "/";
  return path.split("/").map(uriEncode).join("/");
}

function canonicalQuery(search: URLSearchParams): string {
  const pairs = [...search].map(([k, v]) => [uriEncode(k), uriEncode(v)]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

/** `YYYYMMDDTHHMMSSZ` of `date`. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** The derived signing key of a day, region and service. */
export async function signingKey(
  secret: string,
  day: string,
  region: string,
  service: string,
): Promise<ArrayBuffer> {
  const kDate = await hmac(`AWS4${secret}`, day);
  const kRegion = await hmac(new Uint8Array(kDate), region);
  const kService = await hmac(new Uint8Array(kRegion), service);
  return hmac(new Uint8Array(kService), "aws4_request");
}

/**
 * Signs `request` for `service` in `region` at `date`. When `payloadHashHeader` is true the body
 * hash is also sent (and signed) as `x-amz-content-sha256`, as the AWS SDK does for Bedrock.
 */
export async function signRequest(
  request: SigV4Request,
  credentials: AwsCredentials,
  region: string,
  service: string,
  date: Date,
  payloadHashHeader = false,
): Promise<SigV4Result> {
  const stamp = amzDate(date);
  const day = stamp.slice(0, 8);
  const payloadHash = await sha256Hex(request.body ?? "");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host = request.url.host;
  headers["x-amz-date"] = stamp;
  if (payloadHashHeader) headers["x-amz-content-sha256"] = payloadHash;
  if (credentials.sessionToken) headers["x-amz-security-token"] = credentials.sessionToken;
  delete headers.authorization;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n].trim().replace(/\s+/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.url.pathname),
    canonicalQuery(request.url.searchParams),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, await sha256Hex(canonicalRequest)].join("\n");
  const key = await signingKey(credentials.secretAccessKey, day, region, service);
  const signature = toHex(await hmac(new Uint8Array(key), stringToSign));
  const authorization =
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers: { ...headers, authorization }, authorization, signature, canonicalRequest, stringToSign };
}
