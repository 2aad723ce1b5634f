// The official TypeScript SDK v2 client (@modelcontextprotocol/client) in a given version
// negotiation mode: node ts_modern.mjs MODE http URL TOKEN | node ts_modern.mjs MODE stdio CMD
// [ARG...], MODE being "auto" or a version to pin ("2026-07-28"). Lists the tools, calls
// read_search and an unknown tool, and prints one JSON summary line for the Python test.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [mode, kind, ...rest] = process.argv.slice(2);
let transport;
if (kind === "http") {
  const [url, token] = rest;
  transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
} else {
  const [command, ...args] = rest;
  transport = new StdioClientTransport({ command, args, env: process.env, stderr: "ignore" });
}
const versionNegotiation = { mode: mode === "auto" ? "auto" : { pin: mode } };
const client = new Client({ name: "media-mcp-ts2-test", version: "1.0.0" }, { versionNegotiation });
await client.connect(transport);
const { tools } = await client.listTools();
const search = await client.callTool({ name: "read_search", arguments: { query: "matrix", media: "movie" } });
let unknownCode = null;
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
} catch (e) {
  unknownCode = e.code;
}
console.log(JSON.stringify({
  era: client.getProtocolEra() ?? null,
  protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  server: client.getServerVersion() ?? null,
  discovered: client.getDiscoverResult()?.supportedVersions ?? null,
  tools: tools.map((t) => t.name),
  search: { isError: search.isError ?? false, structuredContent: search.structuredContent, text: search.content[0].text },
  unknownCode,
}));
await client.close();
