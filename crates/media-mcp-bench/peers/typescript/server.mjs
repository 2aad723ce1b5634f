// Benchmark peer: a minimal stdio MCP server on the official TypeScript SDK
// (@modelcontextprotocol/sdk). It does the job `read_search` does in the benchmark, the way a
// typical TypeScript media MCP server does it: fetch `GET {OMBI_URL}/api/v1/Search/movie/{query}`
// with the `ApiKey` header (Node's built-in fetch) and return the parsed body as structured
// content. No validation beyond the SDK's, no projection, no byte cap.
//
// With `--http PORT` it serves stateless Streamable HTTP (JSON answers) on 127.0.0.1:PORT/mcp,
// one server and transport per request as the SDK documents for stateless servers.
//
// scripts/bench.sh copies this file next to the node_modules it installs under target/bench/node,
// because ES modules resolve packages relative to the importing file.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer } from "node:http";
import { z } from "zod";

const ombiUrl = process.env.OMBI_URL.replace(/\/+$/, "");
const apiKey = process.env.OMBI_API_KEY ?? "";

function makeServer() {
  const server = new McpServer({ name: "typescript-peer", version: "0.0.0" });

  server.registerTool(
    "read_search",
    {
      description: "Search Ombi for movies.",
      inputSchema: { query: z.string(), media: z.string().optional() },
      outputSchema: { results: z.array(z.any()) },
    },
    async ({ query }) => {
      const url = `${ombiUrl}/api/v1/Search/movie/${encodeURIComponent(query)}`;
      const response = await fetch(url, { headers: { ApiKey: apiKey } });
      if (!response.ok) {
        throw new Error(`upstream answered ${response.status}`);
      }
      const structuredContent = { results: await response.json() };
      return {
        content: [{ type: "text", text: JSON.stringify(structuredContent) }],
        structuredContent,
      };
    },
  );

  return server;
}

const httpPort = process.argv[2] === "--http" ? Number(process.argv[3]) : null;
if (httpPort === null) {
  await makeServer().connect(new StdioServerTransport());
} else {
  createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }).listen(httpPort, "127.0.0.1");
}
