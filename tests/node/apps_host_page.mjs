// The host page of the MCP Apps browser test (tests/python/test_apps_browser.py), bundled for
// the browser by esbuild: the official TypeScript client connects to the server, and the
// published ext-apps AppBridge hosts the tool's view in a sandboxed iframe whose CSP is built
// from the view's `_meta.ui.csp`, as the MCP Apps spec tells a host to.
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const HOST = { name: "media-mcp-apps-browser-test", version: "1" };

function cspOf(csp) {
  const resources = (csp && csp.resourceDomains || []).join(" ");
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `media-src data: ${resources}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}

window.hostView = async ({ url, token, tool, args }) => {
  const client = new Client(HOST);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }));
  const { tools } = await client.listTools();
  const listed = tools.find((t) => t.name === tool);
  const uri = getToolUiResourceUri(listed);
  const read = await client.readResource({ uri });
  const content = read.contents[0];
  const csp = content._meta && content._meta.ui && content._meta.ui.csp;
  const html = content.text.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${cspOf(csp)}">`);

  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.title = "media-mcp view";
  iframe.style.cssText = "width:100%;border:0;height:200px";
  document.getElementById("views").append(iframe);
  const bridge = new AppBridge(client, HOST, { serverTools: {}, serverResources: {}, sandbox: { csp } }, {
    hostContext: { theme: "light", displayMode: "inline", platform: "web", containerDimensions: { maxHeight: 4000 } },
  });
  const sizes = [];
  bridge.onsizechange = ({ height }) => { sizes.push(height); if (height) iframe.style.height = `${height}px`; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  // The bridge listens before the view loads, so the view's first message is not missed.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  const result = await client.callTool({ name: tool, arguments: args });
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  window.teardown = () => bridge.teardownResource({});
  window.sizes = sizes;
  return { uri, csp, mimeType: content.mimeType, toolMeta: listed._meta, resultMeta: result._meta || null };
};
