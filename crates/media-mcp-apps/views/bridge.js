"use strict";
/* MCP Apps (io.modelcontextprotocol/ui) over postMessage: the handshake, host context,
   size changes, teardown, and tools/call through the host. Upstream text is only ever set
   with textContent, never parsed as HTML. */
const bridge = (() => {
  const pending = new Map();
  const handlers = {};
  let nextId = 1;
  let live = true;
  let lastSize = "";
  let observer = null;
  let approvedOrigins = null;
  const send = (message) => { if (live) window.parent.postMessage(message, "*"); };
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ jsonrpc: "2.0", id, method, params });
  });
  const notify = (method, params) => send({ jsonrpc: "2.0", method, params });
  const reportSize = () => {
    const box = document.documentElement.getBoundingClientRect();
    const size = { width: Math.ceil(box.width), height: Math.ceil(document.documentElement.scrollHeight) };
    const key = size.width + "x" + size.height;
    if (key !== lastSize) { lastSize = key; notify("ui/notifications/size-changed", size); }
  };
  const applyContext = (context) => {
    const root = document.documentElement;
    if (context.theme === "light" || context.theme === "dark") root.style.colorScheme = context.theme;
    const variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object") {
      for (const [name, value] of Object.entries(variables)) {
        if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
      }
    }
    const dims = context.containerDimensions;
    if (dims && typeof dims.maxHeight === "number") root.style.maxHeight = dims.maxHeight + "px";
  };
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      const waiting = pending.get(m.id);
      if (!waiting) return;
      pending.delete(m.id);
      if (m.error) waiting.reject(m.error); else waiting.resolve(m.result);
      return;
    }
    if (m.method === "ui/resource-teardown") {
      send({ jsonrpc: "2.0", id: m.id, result: {} });
      live = false;
      if (observer) observer.disconnect();
      return;
    }
    if (m.method === "ping" && m.id !== undefined) { send({ jsonrpc: "2.0", id: m.id, result: {} }); return; }
    const handler = handlers[m.method];
    if (handler) handler(m.params || {});
    else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  });
  handlers["ui/notifications/host-context-changed"] = applyContext;
  return {
    on(method, handler) { handlers[method] = handler; },
    async start(name) {
      const result = await request("ui/initialize", {
        protocolVersion: "2026-01-26",
        appInfo: { name: "media-mcp " + name, version: "1" },
        appCapabilities: { availableDisplayModes: ["inline"] },
      });
      applyContext((result && result.hostContext) || {});
      const csp = result && result.hostCapabilities && result.hostCapabilities.sandbox && result.hostCapabilities.sandbox.csp;
      if (csp && Array.isArray(csp.resourceDomains)) approvedOrigins = csp.resourceDomains;
      notify("ui/notifications/initialized", {});
      observer = new ResizeObserver(reportSize);
      observer.observe(document.documentElement);
      reportSize();
    },
    callTool: (name, args) => request("tools/call", { name, arguments: args }),
    /* Whether the host approved loading from `origin` (a host that says nothing leaves it to its CSP). */
    mayLoad: (origin) => approvedOrigins === null || approvedOrigins.includes(origin),
  };
})();

/* An element with text (never HTML). */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/* The envelope of a CallToolResult: structuredContent, or the text block's JSON. */
function envelopeOf(result) {
  if (result && result.structuredContent && typeof result.structuredContent === "object") return result.structuredContent;
  const block = result && Array.isArray(result.content) && result.content.find((c) => c && c.type === "text");
  if (block) { try { return JSON.parse(block.text); } catch (_) { /* not JSON */ } }
  return null;
}

/* The message of a JSON-RPC error or of a failed envelope. */
function problemOf(error) {
  if (error && typeof error.message === "string") return error.message;
  return "The host could not complete the call.";
}

/* The page of `kind` in a result with its warnings as notes, or null after showing why there
   is none. */
function pageOf(result, kind, what) {
  const envelope = envelopeOf(result);
  if (!envelope) { show(el("p", "note bad", "This result has no envelope to show.")); return null; }
  if (!envelope.ok) { show(el("p", "note bad", (envelope.error && envelope.error.message) || "The call failed.")); return null; }
  const page = envelope.data || {};
  if (page.kind !== kind || !Array.isArray(page.items)) { show(el("p", "note muted", "This result is not a list of " + what + ".")); return null; }
  const notes = (envelope.warnings || []).map((w) => el("p", "note muted", w));
  if (!page.items.length) notes.push(el("p", "note muted", "No " + what + "."));
  return { page, notes };
}

const view = document.getElementById("view");
function show(...nodes) { view.replaceChildren(...nodes); }
bridge.on("ui/notifications/tool-cancelled", (p) => show(el("p", "note muted", "The call was cancelled" + (p.reason ? ": " + p.reason : "."))));
