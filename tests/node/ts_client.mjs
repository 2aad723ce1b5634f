// The official TypeScript SDK client over Streamable HTTP: node ts_client.mjs URL TOKEN.
// Lists the tools, calls read_search (the SDK validates structuredContent against the tool's
// outputSchema) and an unknown tool, and prints one JSON summary line for the Python test.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "media-mcp-ts-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const search = await client.callTool({ name: "read_search", arguments: { query: "matrix", media: "movie" } });
let unknownCode = null;
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
} catch (e) {
  unknownCode = e.code;
}
await client.ping();
console.log(JSON.stringify({
  protocolVersion: transport.protocolVersion ?? null,
  server: client.getServerVersion(),
  tools: tools.map((t) => t.name),
  search: { isError: search.isError ?? false, structuredContent: search.structuredContent, text: search.content[0].text },
  unknownCode,
}));
await client.close();
