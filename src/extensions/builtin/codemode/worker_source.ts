/**
 * The JavaScript a codemode worker runs, as text: the host starts it from a blob URL in a Deno
 * Worker with every permission denied, so it needs no file of its own (and works the same from a
 * source checkout, the bundle or a compiled binary).
 *
 * The permissions are the wall: a script that reaches `globalThis.Deno` or imports a Node built-in can
 * read, write, run and connect to nothing ("Requires read access …"). On top of that the script's
 * function shadows the runtime's names (`Deno`, `fetch`, timers, `postMessage` …) with undefined
 * parameters, so `typeof fetch` is "undefined" as in pi 1.6.0's QuickJS sandbox. The script reaches
 * the outside only through `tools.*` and the host's globals, each a message to the host answered by
 * a `settle` message; the host checks every message and keeps its own output limits.
 *
 * Messages, worker → host: `call`/`global` {id, name, args (JSON text)}, `output` {kind: "text" |
 * "console" | "image", data, mimeType?}, `done` {ok, payload (JSON text of the value or of
 * {name, message, stack}), writes (JSON text of [key, json?][])}. Host → worker: `start` {code,
 * tools: [{name, jsName, description}], globals: [{name, spread}], store: {key: json}}, `settle`
 * {id, ok, payload, properties}.
 *
 * @module
 */

/** Characters of one stored value's JSON (1.6.0). */
export const MAX_STORE_VALUE_CHARS = 256 * 1024;
/** Characters of all stored values' JSON together (1.6.0). */
export const MAX_STORE_TOTAL_CHARS = 1024 * 1024;
/** Characters of text and base64 image data one script may output (1.6.0). */
export const MAX_OUTPUT_CHARS = 16 * 1024 * 1024;
/** `text()`, `image()` and `console` calls one script may make (1.6.0). */
export const MAX_OUTPUT_ITEMS = 100_000;

const IMAGE_HELPER_EXPECTS =
  'image expects a non-empty image URL string, an object with image_url, or an image block { type: "image", data, mimeType }';

/** The worker's source. */
export const WORKER_SOURCE = String.raw`
"use strict";
const post = globalThis.postMessage.bind(globalThis);
const listen = globalThis.addEventListener.bind(globalThis);
const Channel = globalThis.MessageChannel;
const stringify = JSON.stringify;
const parse = JSON.parse;
const promiseThen = Promise.prototype.then;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const RangeErrorCtor = RangeError;

// Names of the runtime a script does not see as plain identifiers (1.6.0's QuickJS has none of
// them): the script's function takes them as parameters that are undefined. \`globalThis.Deno\` still
// exists, but with every permission denied it can read, write, run and reach nothing.
const HIDDEN = [
  "Deno", "fetch", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "self", "postMessage",
  "close", "addEventListener", "removeEventListener", "dispatchEvent", "onmessage", "onerror", "Worker",
  "WebSocket", "navigator", "location", "process", "require", "importScripts", "MessageChannel",
  "BroadcastChannel", "EventSource", "caches", "localStorage", "sessionStorage", "Request", "Response",
];

const pending = new Map();
let nextId = 1;
let finished = false;
const EXIT = Object.freeze({});

function done(ok, payload, writes) {
  if (finished) return;
  finished = true;
  post({ type: "done", ok, payload, writes });
}

// "Name: message" and the script's own frames (codemode.js), as 1.6.0 shows a QuickJS error.
function errorText(error) {
  const head = error.message ? String(error.name) + ": " + String(error.message) : String(error.name);
  const frames = typeof error.stack === "string"
    ? error.stack.split("\n").filter((line) => /^\s+at /.test(line) && line.includes("codemode.js")).map((line) => {
      const where = /codemode\.js(?:, <anonymous>)?:(\d+):(\d+)/.exec(line);
      // The script starts on the wrapper's second line.
      return where ? "    at <anonymous> (codemode.js:" + (Number(where[1]) - 1) + ":" + where[2] + ")" : line;
    })
    : [];
  return [head, ...frames].join("\n");
}

function format(value) {
  if (typeof value === "string") return value;
  if (value instanceof ErrorCtor) return errorText(value);
  if (typeof value === "number") return String(value);
  try {
    const json = stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

function describeError(error) {
  try {
    if (error instanceof ErrorCtor) {
      return stringify({ name: String(error.name), message: String(error.message), stack: errorText(error) });
    }
    return stringify({ message: String(format(error)) });
  } catch {
    return stringify({ message: "The script threw a value that cannot be described" });
  }
}

let stallCheck;
function watchStall() {
  if (finished || pending.size > 0 || !stallCheck) return;
  stallCheck.port2.postMessage(0);
}

function caller(kind, name, spread) {
  return (...args) =>
    new Promise((resolve, reject) => {
      let json;
      try {
        json = spread ? stringify(args) : (args[0] === undefined ? undefined : stringify(args[0]));
      } catch (error) {
        reject(error);
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ type: kind, id, name, args: json });
    });
}

function start(data) {
  const tools = Object.create(null);
  const allTools = [];
  for (const { name, jsName, description } of data.tools) {
    const fn = caller("call", name);
    if (!(jsName in tools)) {
      tools[jsName] = fn;
      allTools.push(Object.freeze({ name: jsName, description }));
    }
    if (!(name in tools)) tools[name] = fn;
  }
  Object.freeze(tools);
  Object.freeze(allTools);

  const comparable = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
  function guard(target, label, names, hint) {
    return new Proxy(target, {
      get(object, property, receiver) {
        if (typeof property !== "string" || property in object || property in Object.prototype || property === "then" || property === "toJSON") {
          return Reflect.get(object, property, receiver);
        }
        const wanted = comparable(property);
        const exact = names.filter((name) => comparable(name) === wanted);
        const close = exact.length > 0 ? exact : names.filter((name) => wanted && (comparable(name).includes(wanted) || wanted.includes(comparable(name))));
        let message = label + "." + property + " does not exist.";
        if (close.length > 0) message += " Did you mean " + close.slice(0, 5).map((name) => label + "." + name).join(", ") + "?";
        else if (names.length <= 20) message += " Available: " + names.join(", ") + ".";
        if (hint) message += " " + hint;
        message += ' Check for a member with "' + property + '" in ' + label + ".";
        throw new TypeErrorCtor(message);
      },
    });
  }
  const toolsProxy = guard(tools, "tools", allTools.map((tool) => tool.name), "ALL_TOOLS lists every tool; searchTools(query) finds tools by topic.");

  const namespaces = new Map();
  for (const { name, spread } of data.globals) {
    const fn = caller("global", name, spread);
    const dot = name.indexOf(".");
    if (dot === -1) {
      Object.defineProperty(globalThis, name, { value: fn, enumerable: true });
      continue;
    }
    const namespace = name.slice(0, dot);
    if (!namespaces.has(namespace)) namespaces.set(namespace, Object.create(null));
    namespaces.get(namespace)[name.slice(dot + 1)] = fn;
  }
  for (const [namespace, members] of namespaces) {
    Object.freeze(members);
    Object.defineProperty(globalThis, namespace, { value: guard(members, namespace, Object.keys(members)), enumerable: true });
  }

  const stored = new Map(Object.entries(data.store));
  const writes = new Map();
  let storedChars = 0;
  for (const [key, json] of stored) storedChars += key.length + json.length;
  const STORE_HINT = "store() is for small state such as IDs or summaries. Show images with image(), keep large data in variables, or write it to a file with a tool.";
  function checkKey(name, key) {
    if (typeof key !== "string") throw new TypeErrorCtor(name + "() key must be a string");
  }
  function store(key, value) {
    checkKey("store", key);
    const previous = stored.has(key) ? key.length + stored.get(key).length : 0;
    if (value === undefined) {
      stored.delete(key);
      storedChars -= previous;
      writes.set(key, undefined);
      return;
    }
    let json;
    try {
      json = stringify(value);
    } catch (error) {
      throw new TypeErrorCtor("store(" + stringify(key) + ") value is not JSON-serializable: " + format(error));
    }
    if (json === undefined) throw new TypeErrorCtor("store(" + stringify(key) + ") value is not JSON-serializable");
    if (json.length > MAX_STORE_VALUE_CHARS) {
      throw new RangeErrorCtor("store(" + stringify(key) + ") value has " + json.length + " characters of JSON, more than the limit of " + MAX_STORE_VALUE_CHARS + ". " + STORE_HINT);
    }
    const next = storedChars - previous + key.length + json.length;
    if (next > MAX_STORE_TOTAL_CHARS) {
      throw new RangeErrorCtor("store is full: stored values would exceed " + MAX_STORE_TOTAL_CHARS + " characters of JSON. Delete keys with store(key, undefined). " + STORE_HINT);
    }
    stored.set(key, json);
    storedChars = next;
    writes.set(key, json);
  }
  function load(key) {
    checkKey("load", key);
    const json = stored.get(key);
    return json === undefined ? undefined : parse(json);
  }
  function serializeWrites() {
    const entries = [];
    for (const [key, json] of writes) entries.push(json === undefined ? [key] : [key, json]);
    return stringify(entries);
  }

  let outputChars = 0;
  let outputItems = 0;
  function output(kind, text, mimeType) {
    if (finished) return;
    outputChars += text.length;
    outputItems++;
    if (outputChars > MAX_OUTPUT_CHARS || outputItems > MAX_OUTPUT_ITEMS) {
      const error = new RangeErrorCtor("script output exceeded the limit of " + MAX_OUTPUT_CHARS + " characters or " + MAX_OUTPUT_ITEMS + " text(), image(), and console calls. Print a summary instead, or write large data to a file with a tool.");
      done(false, describeError(error));
      throw error;
    }
    post({ type: "output", kind, data: text, mimeType });
  }
  function outputText(value) {
    if (value === undefined || value === null || (typeof value !== "object" && typeof value !== "function")) return String(value);
    const json = stringify(value);
    return json === undefined ? String(value) : json;
  }
  function text(value) {
    let rendered;
    try {
      rendered = outputText(value);
    } catch (error) {
      throw new TypeErrorCtor(error instanceof ErrorCtor ? error.message : String(error));
    }
    output("text", rendered);
  }
  function imageUrl(value) {
    if (typeof value === "string") return value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeErrorCtor(IMAGE_HELPER_EXPECTS);
    if (value.image_url !== undefined) {
      if (typeof value.image_url !== "string") throw new TypeErrorCtor(IMAGE_HELPER_EXPECTS);
      return value.image_url;
    }
    if (typeof value.type !== "string") throw new TypeErrorCtor(IMAGE_HELPER_EXPECTS);
    if (value.type !== "image") throw new TypeErrorCtor('image only accepts image blocks, got "' + value.type + '"');
    if (typeof value.data !== "string" || value.data === "") throw new TypeErrorCtor("image expected image block data");
    if (value.data.toLowerCase().startsWith("data:")) return value.data;
    return "data:;base64," + value.data;
  }
  const IMAGE_SIGNATURES = [
    ["image/png", /^iVBORw0KGg/],
    ["image/jpeg", /^[/]9j[/](?!9)/],
    ["image/gif", /^R0lGOD[dl]h/],
    ["image/webp", /^UklG.{8}RUJQ/],
  ];
  function image(value) {
    const url = imageUrl(value);
    if (url === "") throw new TypeErrorCtor(IMAGE_HELPER_EXPECTS);
    const colon = url.indexOf(":");
    const scheme = colon === -1 ? "" : url.slice(0, colon).toLowerCase();
    if (scheme === "http" || scheme === "https") {
      throw new TypeErrorCtor("remote image URLs are not supported in tool outputs. Pass a base64 data URI instead");
    }
    const comma = url.indexOf(",");
    const header = comma === -1 ? [] : url.slice(colon + 1, comma).split(";");
    if (scheme !== "data" || comma === -1 || header.slice(1).every((part) => part.toLowerCase() !== "base64")) {
      throw new TypeErrorCtor("invalid image output. Pass a base64 data URI instead");
    }
    const base64 = url.slice(comma + 1).replace(/\s+/g, "");
    if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
      throw new TypeErrorCtor("invalid image output. The image data is not valid base64 (truncated or corrupted?)");
    }
    const signature = IMAGE_SIGNATURES.find(([, pattern]) => pattern.test(base64.slice(0, 16)));
    if (!signature) throw new TypeErrorCtor("invalid image output. The image data is not a PNG, JPEG, GIF, or WebP image");
    output("image", base64, signature[0]);
  }
  function exit() {
    let writesJson;
    try {
      writesJson = serializeWrites();
    } catch (error) {
      done(false, describeError(error));
      throw EXIT;
    }
    done(true, undefined, writesJson);
    throw EXIT;
  }
  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...args) => output("console", args.map(format).join(" "));
  }
  Object.freeze(console);
  for (const [name, value] of [["tools", toolsProxy], ["ALL_TOOLS", allTools], ["console", console], ["text", text], ["image", image], ["exit", exit], ["store", store], ["load", load]]) {
    Object.defineProperty(globalThis, name, { value, enumerable: true });
  }

  let fn;
  try {
    fn = (0, eval)("(async (tools, console, " + HIDDEN.join(", ") + ") => {\n" + data.code + "\n})\n//# sourceURL=codemode.js");
  } catch (error) {
    done(false, describeError(error));
    return;
  }
  let promise;
  try {
    promise = fn(toolsProxy, console);
  } catch (error) {
    done(false, describeError(error));
    return;
  }
  promiseThen.call(
    promise,
    (value) => {
      let json;
      try {
        json = value === undefined ? undefined : stringify(value);
      } catch (error) {
        done(false, describeError(error));
        return;
      }
      done(true, json, serializeWrites());
    },
    (error) => {
      if (error === EXIT) return;
      done(false, describeError(error));
    },
  );
  watchStall();
}

function settle(message) {
  const entry = pending.get(message.id);
  if (!entry) return;
  pending.delete(message.id);
  if (!message.ok) {
    const error = new ErrorCtor(message.payload);
    if (message.properties !== undefined) {
      const properties = parse(message.properties);
      for (const key of Object.keys(properties)) {
        if (key === "name" || key === "message" || key === "stack") continue;
        Object.defineProperty(error, key, { value: properties[key], writable: true, enumerable: true, configurable: true });
      }
    }
    entry.reject(error);
  } else {
    let value;
    try {
      value = message.payload === undefined ? undefined : parse(message.payload);
    } catch (error) {
      entry.reject(error);
      return;
    }
    entry.resolve(value);
  }
  watchStall();
}

// A message posted to ourselves arrives after every pending microtask ran: if the script has not
// finished and waits for no host call then, nothing can ever resume it (there are no timers).
stallCheck = new Channel();
stallCheck.port1.onmessage = () => {
  if (finished || pending.size > 0) return;
  done(false, stringify({ name: "Error", message: "The script is waiting on a promise that can never settle: no tool call is pending, and timers do not exist here." }));
};

// A rejection nothing handles (inside Node compatibility code a script loaded, say) must not end
// the worker with a message on pi's stderr; the script's own failures arrive through done().
listen("unhandledrejection", (event) => event.preventDefault());
listen("error", (event) => event.preventDefault());

listen("message", (event) => {
  const message = event.data;
  if (message.type === "start") start(message);
  else if (message.type === "settle") settle(message);
});
`
  .replaceAll("MAX_STORE_VALUE_CHARS", String(MAX_STORE_VALUE_CHARS))
  .replaceAll("MAX_STORE_TOTAL_CHARS", String(MAX_STORE_TOTAL_CHARS))
  .replaceAll("MAX_OUTPUT_CHARS", String(MAX_OUTPUT_CHARS))
  .replaceAll("MAX_OUTPUT_ITEMS", String(MAX_OUTPUT_ITEMS))
  .replaceAll("IMAGE_HELPER_EXPECTS", JSON.stringify(IMAGE_HELPER_EXPECTS));
