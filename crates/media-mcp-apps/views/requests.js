/* ui://media-mcp/requests: request_page records with their state, standard and 4K apart. */
const TARGETS = { movie: "Movie", tv_parent: "TV show", tv_child: "TV seasons", album: "Album" };

/* The state the record's own flags say, or null when it says none. */
function stateOf(approved, available, denied) {
  if (denied === true) return { text: "Denied", bad: true };
  if (available === true) return { text: "Available", good: true };
  if (approved === true) return { text: "Approved, not yet available" };
  if (approved === false) return { text: "Waiting for approval" };
  return null;
}

function stateLine(label, state, extra) {
  const line = el("p", "state");
  line.append(el("span", "muted", label + ": "));
  line.append(el("span", state.bad ? "bad" : state.good ? "good" : "", state.text + (extra ? " (" + extra + ")" : "")));
  return line;
}

function row(item) {
  const li = el("li", "request");
  const title = typeof item.title === "string" && item.title ? item.title : null;
  li.append(el("h2", title ? "" : "muted", title || "No title given"));
  const facts = [];
  const kind = item.target && TARGETS[item.target.kind];
  if (kind) facts.push(kind);
  if (typeof item.requested_date === "string" && item.requested_date) facts.push("requested " + item.requested_date.slice(0, 10));
  if (typeof item.status_text === "string" && item.status_text) facts.push(item.status_text);
  if (facts.length) li.append(el("p", "muted", facts.join(" · ")));
  const denied = typeof item.denied_reason === "string" && item.denied_reason ? item.denied_reason : "";
  const standard = stateOf(item.approved, item.available, item.denied);
  if (standard) li.append(stateLine("Standard", standard, standard.bad ? denied : ""));
  const fourK = stateOf(item.approved_4k, item.available_4k, item.denied_4k);
  if (fourK) li.append(stateLine("4K", fourK, fourK.bad ? denied : ""));
  else if (item.is_4k === true) li.append(stateLine("4K", { text: "Requested" }));
  return li;
}

function render(result) {
  const found = pageOf(result, "request_page", "requests");
  if (!found) return;
  const { page, notes: nodes } = found;
  const list = el("ul", "requests");
  list.setAttribute("aria-label", "Requests");
  for (const item of page.items) if (item && typeof item === "object") list.append(row(item));
  if (page.items.length) nodes.push(list);
  show(...nodes);
}

bridge.on("ui/notifications/tool-result", render);
bridge.start("requests").catch((e) => show(el("p", "note bad", "The host did not start this view: " + problemOf(e))));
