// Drives headless Chromium (Debian's, through playwright-core) over the MCP Apps views:
//   node apps_browser.mjs CONFIG.json
// CONFIG: {pagePort, server: {url, token}, readOnly: {url, token}, blockedUrl, screenshot}.
// Prints one JSON line with what it saw; tests/python/test_apps_browser.py judges it.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const bundle = await build({
  entryPoints: [new URL("./apps_host_page.mjs", import.meta.url).pathname],
  bundle: true, format: "esm", platform: "browser", write: false, logLevel: "error",
});
const page_js = bundle.outputFiles[0].text;
const page_html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>apps host</title></head>
<body style="margin:0;font-family:sans-serif;width:760px"><div id="views"></div>
<script type="module" src="/host.js"></script></body></html>`;
const pages = createServer((req, res) => {
  if (req.url === "/host.js") { res.writeHead(200, { "content-type": "text/javascript" }); res.end(page_js); return; }
  res.writeHead(200, { "content-type": "text/html" }); res.end(page_html);
});
await new Promise((resolve) => pages.listen(config.pagePort, "127.0.0.1", resolve));

// A 2×3 PNG, the poster every declared artwork host answers with (no network is used).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGNwSJgARAwoFABJBQchpZzkugAAAABJRU5ErkJggg==", "base64");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const out = {};
try {
  const context = await browser.newContext({ viewport: { width: 760, height: 900 } });
  const posters = [];
  // Later routes take precedence: every other https request fails, as offline.
  await context.route(/^https:\/\//, (route) => route.abort());
  await context.route("https://image.tmdb.org/**", (route) => {
    posters.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/png", body: PNG });
  });

  const show = async (server, tool, args) => {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${config.pagePort}/`);
    await page.waitForFunction(() => typeof window.hostView === "function");
    const hosted = await page.evaluate((a) => window.hostView(a), { url: server.url, token: server.token, tool, args });
    const frame = page.frameLocator("iframe");
    return { page, frame, hosted, errors };
  };

  // The search view: cards, posters from the declared host, an undeclared image blocked.
  const search = await show(config.server, "read_search", { query: "matrix", media: "movie" });
  const { frame } = search;
  await frame.locator("li.card").first().waitFor();
  out.hosted = search.hosted;
  out.cards = await frame.locator("li.card h2").allTextContents();
  out.buttons = await frame.getByRole("button").evaluateAll((bs) => bs.map((b) => ({ name: b.getAttribute("aria-label"), text: b.textContent, disabled: b.disabled })));
  await frame.locator("img.poster").first().waitFor();
  out.posterLoaded = await frame.locator("img.poster").first().evaluate((img) => img.complete && img.naturalWidth > 0);
  out.posterAlts = await frame.locator("img.poster").evaluateAll((imgs) => imgs.map((i) => i.alt));
  out.posters = [...posters];
  out.injected = await frame.locator("img[src='x'], img:not(.poster)").count();
  out.frameTitle = await frame.locator("title").textContent();
  await search.page.screenshot({ path: config.screenshot, fullPage: true });
  out.blocked = await frame.locator("body").evaluate((body, src) => new Promise((resolve) => {
    const img = document.createElement("img");
    let violated = null;
    document.addEventListener("securitypolicyviolation", (e) => { violated = e.violatedDirective; }, { once: true });
    const done = (loaded) => setTimeout(() => { img.remove(); resolve({ loaded, violated }); }, 200);
    img.addEventListener("load", () => done(true));
    img.addEventListener("error", () => done(false));
    img.src = src;
    body.append(img);
  }), config.blockedUrl);
  out.sizes = await search.page.evaluate(() => window.sizes);

  // Request the first card's title through the host, as the acting user.
  const first = frame.getByRole("button", { name: `Request ${config.requestTitle}`, exact: true });
  await first.click();
  const status = frame.locator("li.card", { has: first }).locator("p.outcome");
  await status.filter({ hasNotText: "Requesting" }).waitFor();
  await search.page.waitForFunction(() => true);
  out.outcome = await status.textContent();
  out.teardown = await search.page.evaluate(() => window.teardown());
  out.pageErrors = search.errors;

  // Read-only: every Request button is disabled, with the reason.
  const ro = await show(config.readOnly, "read_search", { query: "matrix", media: "movie" });
  await ro.frame.locator("li.card").first().waitFor();
  out.readOnlyButtons = await ro.frame.getByRole("button").evaluateAll((bs) => bs.map((b) => b.disabled));
  out.readOnlyReason = await ro.frame.locator("p.outcome").first().textContent();

  // The requests view.
  const req = await show(config.server, "read_requests", {});
  await req.frame.locator("li.request, p.note").first().waitFor();
  out.requests = await req.frame.locator("li.request h2").allTextContents();
  out.requestStates = await req.frame.locator("li.request p.state").allTextContents();
} finally {
  await browser.close();
  pages.close();
}
console.log(JSON.stringify(out));
