// The official TypeScript SDK client against the harness, for long calls, over stdio or HTTP:
//   node ts_long_calls.mjs stdio HARNESS ENV_JSON TIMEOUT_MS
//   node ts_long_calls.mjs http URL BEARER_TOKEN TIMEOUT_MS
// 1. a slow read_search with onprogress, resetTimeoutOnProgress and a timeout shorter than the
//    upstream's delay: it succeeds, kept alive by progress;
// 2. the same call without progress: the SDK times out (and sends notifications/cancelled);
// 3. a slow write_request_create aborted by the caller (AbortSignal, so the SDK sends
//    notifications/cancelled) while a read_media runs: the read still answers.
// Prints one JSON summary line for tests/python/test_long_calls.py.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, secret, timeoutText] = process.argv.slice(2);
const timeout = Number(timeoutText);
let stderr = "";
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({ command: target, args: ["serve"], env: JSON.parse(secret), stderr: "pipe" });
  transport.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
} else {
  transport = new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
}
const errors = [];
const client = new Client({ name: "media-mcp-long-calls", version: "1.0.0" });
client.onerror = (error) => errors.push(String(error));
await client.connect(transport);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const search = { name: "read_search", arguments: { query: "matrix", media: "movie" } };

// 1. Kept alive by progress.
const progress = [];
const started = Date.now();
const kept = await client.callTool(search, undefined, {
  timeout,
  resetTimeoutOnProgress: true,
  onprogress: (p) => progress.push({ ...p, at: Date.now() - started }),
});
const keptMs = Date.now() - started;

// 2. Silent, so the client gives up.
let silentError = null;
try {
  await client.callTool(search, undefined, { timeout });
} catch (e) {
  silentError = { code: e.code ?? null, message: String(e.message) };
}

// 3. A write cancelled by the caller while a read runs.
const controller = new AbortController();
const write = client
  .callTool({ name: "write_request_create", arguments: { media: "movie", tmdb_id: 603 } }, undefined, {
    signal: controller.signal,
    timeout: 60000,
  })
  .then(() => ({ answered: true }), (e) => ({ answered: false, message: String(e.message ?? e) }));
await sleep(800);
const read = client.callTool({ name: "read_media", arguments: { media: "movie", id: "603" } }, undefined, { timeout: 60000 });
controller.abort("the user changed their mind");
const [cancelled, other] = await Promise.all([write, read]);

// Anything late (progress or an answer for a finished request) would reach onerror now.
await sleep(1500);
await client.close();
console.log(JSON.stringify({
  kept: { isError: kept.isError ?? false, ok: kept.structuredContent?.ok ?? null, ms: keptMs },
  progress,
  silentError,
  cancelled,
  other: { isError: other.isError ?? false, ok: other.structuredContent?.ok ?? null },
  errors,
  stderr,
}));
