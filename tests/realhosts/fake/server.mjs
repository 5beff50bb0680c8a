// server.mjs — the fake model server: one HTTP server on 127.0.0.1 (a port the OS picks) that
// routes each request by URL path to an API module, and logs every request.
//
// API modules are the other files of this directory (anthropic.mjs, openai.mjs, gemini.mjs, ...);
// each exports `api` (its name), `match(method, path)` and `async handle(x)`, where x is
// {req, res, method, path, url, headers, body, entry}: body is the parsed JSON (or the raw
// text), entry the request's log entry, which the module completes (entry.step, entry.side).
// Adding an API is adding a file: this server finds it.
import { createServer } from "node:http";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import * as script from "./script.mjs";

const here = dirname(fileURLToPath(import.meta.url));

async function loadApis() {
  const apis = [];
  for (const f of readdirSync(here).sort()) {
    if (!f.endsWith(".mjs") || f === "server.mjs" || f === "script.mjs") continue;
    const m = await import(pathToFileURL(join(here, f)).href);
    if (typeof m.match === "function" && typeof m.handle === "function") apis.push(m);
  }
  return apis;
}

const decoders = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
  ...(zlib.zstdDecompress ? { zstd: promisify(zlib.zstdDecompress) } : {}),
};

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  let buf = Buffer.concat(chunks);
  const enc = (req.headers["content-encoding"] || "").toLowerCase();
  if (enc && decoders[enc]) buf = await decoders[enc](buf);
  else if (enc && enc !== "identity") return { raw: buf.toString("base64"), encoding: enc };
  const text = buf.toString("utf8");
  if (!text) return null;
  try { return JSON.parse(text); } catch { return text; }
}

// Headers worth keeping in the log; never the key itself.
function safeHeaders(h) {
  const out = {};
  for (const [k, v] of Object.entries(h)) out[k] = /authorization|api-key|x-goog-api-key|cookie/i.test(k) ? "<redacted>" : v;
  return out;
}

export async function startServer({ verbose = false } = {}) {
  const apis = await loadApis();
  const log = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const path = url.pathname;
    let body;
    try { body = await readBody(req); } catch (e) { body = { unreadable: String(e) }; }
    const api = apis.find((a) => a.match(req.method, path));
    const entry = { at: Date.now(), api: api ? api.api : "unknown", method: req.method, path,
                    query: url.search, headers: safeHeaders(req.headers), body,
                    scenario: script.findScenario(body), step: null, side: false };
    log.push(entry);
    if (verbose) console.error(`fake: ${req.method} ${req.url} -> ${entry.api} scenario=${entry.scenario}`);
    if (!api) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake server: no API for ${req.method} ${path}` } }));
      return;
    }
    try {
      await api.handle({ req, res, method: req.method, path, url, headers: req.headers, body, entry });
    } catch (e) {
      entry.error = String(e && e.stack || e);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake server: ${e}` } }));
    }
  });
  await new Promise((ok, ko) => { server.once("error", ko); server.listen(0, "127.0.0.1", ok); });
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    // The scripted requests of a scenario, oldest first (side requests too with {side: true}).
    requests: (id, { side = false } = {}) => log.filter((e) => e.scenario === id && (side || !e.side)),
    // Every logged request (for debugging and for side-request checks).
    all: () => log,
    reported: (id) => script.reported(id),
    scenario: (steps, prefix) => script.register(steps, prefix),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}
