/* ui://media-mcp/titles: media_page records as poster cards with a Request button. */
const KINDS = { movie: "Movie", tv: "TV show", album: "Album", artist: "Artist", person: "Person", collection: "Collection", unknown: "Unknown kind" };
let requestTool = { offered: true, reason: "" };
const buttons = [];

/* The card's image address: https from an origin the host approved (the view's CSP names the
   artwork hosts; the plugin sends no other); TMDB at a card's size. */
function posterOf(item) {
  const uri = Array.isArray(item.artwork_uris) ? item.artwork_uris[0] : undefined;
  if (typeof uri !== "string") return null;
  let parsed;
  try { parsed = new URL(uri); } catch (_) { return null; }
  if (parsed.protocol !== "https:" || !bridge.mayLoad(parsed.origin)) return null;
  if (parsed.hostname === "image.tmdb.org") parsed.pathname = parsed.pathname.replace(/^\/t\/p\/[a-z0-9]+\//, "/t/p/w342/");
  return parsed.href;
}

function idOf(item, namespace) {
  const found = (item.identifiers || []).find((i) => i && i.namespace === namespace);
  return found ? found.value : undefined;
}

/* write_request_create's arguments for a record, or why it cannot be requested from here. */
function requestOf(item) {
  if (item.media === "movie" || item.media === "tv") {
    const tmdb = idOf(item, "tmdb");
    const numeric = (id) => typeof id === "string" && /^[1-9][0-9]{0,9}$/.test(id);
    if (numeric(tmdb)) {
      return item.media === "movie"
        ? { args: { media: "movie", tmdb_id: Number(tmdb) } }
        : { args: { media: "tv", tmdb_id: Number(tmdb), request_all: true } };
    }
    const tvdb = idOf(item, "tvdb");
    /* A TVDB-keyed show: its TMDB id comes from read_media when the button is pressed. */
    if (item.media === "tv" && numeric(tvdb)) return { tvdb };
    return { reason: "This title has no TMDB id to request it by." };
  }
  if (item.media === "album") {
    const mbid = idOf(item, "musicbrainz");
    if (!mbid) return { reason: "This album has no MusicBrainz id to request it by." };
    return { args: { media: "album", musicbrainz_album_id: mbid } };
  }
  return null;
}

function disableAll(reason) {
  for (const b of buttons) { b.button.disabled = true; b.outcome.textContent = reason; }
}

function outcomeText(envelope) {
  if (!envelope) return { text: "The answer could not be read; check your requests before trying again.", bad: true };
  if (!envelope.ok) return { text: (envelope.error && envelope.error.message) || "The request failed.", bad: true, code: envelope.error && envelope.error.code };
  const data = envelope.data || {};
  const said = typeof data.message === "string" && data.message ? " " + data.message : "";
  switch (data.outcome) {
    case "completed": return { text: "Requested." + said };
    case "accepted": return { text: "Request sent." + said };
    case "partial": return { text: "Partly requested." + said, bad: true };
    case "rejected": return { text: "Refused." + said, bad: true };
    default: return { text: "Whether it was requested is unknown; check your requests before trying again." + said, bad: true };
  }
}

/* The TMDB id read_media gives a TVDB-keyed show, or null. */
async function tmdbOfShow(tvdb) {
  const envelope = envelopeOf(await bridge.callTool("read_media", { media: "tv", id: tvdb, id_namespace: "tvdb" }));
  const item = envelope && envelope.ok && envelope.data && Array.isArray(envelope.data.items) ? envelope.data.items[0] : null;
  const tmdb = item ? idOf(item, "tmdb") : undefined;
  return typeof tmdb === "string" && /^[1-9][0-9]{0,9}$/.test(tmdb) ? Number(tmdb) : null;
}

async function requestTitle(button, outcome, plan) {
  button.disabled = true;
  outcome.className = "outcome muted";
  outcome.textContent = "Requesting…";
  try {
    let args = plan.args;
    if (!args) {
      const tmdb = await tmdbOfShow(plan.tvdb);
      if (tmdb === null) { outcome.className = "outcome bad"; outcome.textContent = "No TMDB id was found for this show, so it cannot be requested from here."; return; }
      args = { media: "tv", tmdb_id: tmdb, request_all: true };
    }
    const told = outcomeText(envelopeOf(await bridge.callTool(requestTool.tool || "write_request_create", args)));
    outcome.className = told.bad ? "outcome bad" : "outcome good";
    outcome.textContent = told.text;
    if (told.code === "FORBIDDEN" || told.code === "AUTHENTICATION_FAILED") disableAll(told.text);
    else if (told.bad) button.disabled = false;
  } catch (error) {
    disableAll("Requesting is not available here: " + problemOf(error));
  }
}

function card(item, single) {
  const li = el("li", "card");
  const title = typeof item.title === "string" && item.title ? item.title : null;
  const name = title || "this title";
  const poster = posterOf(item);
  const placeholder = () => { const p = el("div", "placeholder", "No poster"); p.setAttribute("role", "img"); p.setAttribute("aria-label", "No poster for " + name); return p; };
  if (poster) {
    const img = el("img", "poster");
    img.alt = "Poster of " + name;
    img.loading = "lazy";
    img.referrerPolicy = "no-referrer";
    img.addEventListener("error", () => img.replaceWith(placeholder()), { once: true });
    img.src = poster;
    li.append(img);
  } else {
    li.append(placeholder());
  }
  const body = el("div", "body");
  body.append(el("h2", title ? "" : "muted", title || "No title given"));
  const facts = [KINDS[item.media] || KINDS.unknown];
  if (Number.isInteger(item.year)) facts.push(String(item.year));
  body.append(el("p", "muted", facts.join(" · ")));
  const tags = el("ul", "tags");
  if (item.available === true) tags.append(el("li", "good", "Available"));
  if (item.available === false) tags.append(el("li", "", "Not available"));
  if (item.requested === true) tags.append(el("li", "", "Requested"));
  if (item.requested === false) tags.append(el("li", "", "Not requested"));
  if (tags.childElementCount) body.append(tags);
  if (single && typeof item.overview === "string" && item.overview) body.append(el("p", "overview", item.overview));
  if (single && Array.isArray(item.genres) && item.genres.length) body.append(el("p", "muted", item.genres.join(", ")));
  const plan = requestOf(item);
  if (plan) {
    const button = el("button", "", "Request");
    button.type = "button";
    button.setAttribute("aria-label", "Request " + name);
    const outcome = el("p", "outcome muted");
    outcome.setAttribute("role", "status");
    if (!requestTool.offered) { button.disabled = true; outcome.textContent = requestTool.reason; }
    else if (plan.reason) { button.disabled = true; outcome.textContent = plan.reason; }
    else button.addEventListener("click", () => requestTitle(button, outcome, plan));
    buttons.push({ button, outcome });
    body.append(button, outcome);
  }
  li.append(body);
  return li;
}

function render(result) {
  buttons.length = 0;
  const meta = (result && result._meta && result._meta["media-mcp/actions"]) || {};
  if (meta.request && typeof meta.request === "object") {
    requestTool = { tool: meta.request.tool, offered: meta.request.offered !== false, reason: meta.request.reason || "Requesting is not available here." };
  }
  const found = pageOf(result, "media_page", "titles");
  if (!found) return;
  const { page, notes: nodes } = found;
  const single = page.items.length === 1;
  const list = el("ul", "cards");
  list.setAttribute("aria-label", "Titles");
  for (const item of page.items) if (item && typeof item === "object") list.append(card(item, single));
  if (page.items.length) nodes.push(list);
  const p = page.page;
  if (p && Number.isInteger(p.returned)) {
    const total = Number.isInteger(p.total) ? " of " + p.total : "";
    nodes.push(el("p", "note muted", p.returned + total + (p.has_more ? " (more on the next page)" : "")));
  }
  view.classList.toggle("single", single);
  show(...nodes);
}

bridge.on("ui/notifications/tool-result", render);
bridge.start("titles").catch((e) => show(el("p", "note bad", "The host did not start this view: " + problemOf(e))));
