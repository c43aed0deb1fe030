// The interim raw-stream page: connects to /ws with the token from the page's URL, shows the stores as of the
// newest snapshot plus changes, and the raw messages. It speaks only PROTOCOL.md; the dashboard replaces it.

const token = new URLSearchParams(location.search).get("token") ?? "";
const statusEl = document.getElementById("status");
const logEl = document.getElementById("log");
const storesEl = document.getElementById("stores");
const seqEl = document.getElementById("seq");
const keep = 200;
let lastSeq = null;
let snapshotSeq = null;
let stores = new Map();
let delay = 250;

function show(state, text) {
  statusEl.textContent = text;
  statusEl.className = `status ${state}`;
}

function logMessage(text) {
  const item = document.createElement("li");
  item.textContent = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  logEl.prepend(item);
  while (logEl.childElementCount > keep) logEl.lastElementChild.remove();
}

function renderStores() {
  storesEl.replaceChildren(
    ...[...stores.values()].map((store) => {
      const block = document.createElement("details");
      block.open = true;
      const title = document.createElement("summary");
      title.textContent = `${store.id} (v${store.version})`;
      const body = document.createElement("pre");
      body.textContent = JSON.stringify(store.root, null, 2);
      block.append(title, body);
      return block;
    }),
  );
  showSeq();
}

// The trees are the latest snapshot's (this interim page does not apply changes); the stream goes on past it.
function showSeq() {
  seqEl.textContent = snapshotSeq === null ? "" : `snapshot at seq ${snapshotSeq} · stream at seq ${lastSeq}`;
}

function handle(message) {
  switch (message.type) {
    case "hello":
      document.getElementById("server").textContent =
        `${message.server.name} ${message.server.version} (pid ${message.server.pid})${message.readOnly ? " · read-only" : ""}`;
      break;
    case "snapshot":
      stores = new Map(message.stores.map((store) => [store.id, store]));
      lastSeq = message.seq;
      snapshotSeq = message.seq;
      renderStores();
      break;
    case "changes":
      let storesChanged = false;
      for (const entry of message.entries) {
        lastSeq = entry.seq;
        if (entry.event === "registered") stores.set(entry.store, { id: entry.store, version: entry.version, root: entry.root });
        else if (entry.event === "removed") stores.delete(entry.store);
        storesChanged ||= entry.event === "registered" || entry.event === "removed";
      }
      if (storesChanged) renderStores();
      else showSeq();
      break;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const resume = lastSeq === null ? "" : `&resume=${lastSeq}`;
  const socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}${resume}`, "keyscope.v1");
  socket.onopen = () => { show("live", "live"); delay = 250; };
  socket.onmessage = (event) => {
    logMessage(event.data);
    handle(JSON.parse(event.data));
  };
  socket.onclose = (event) => {
    show("down", `disconnected (${event.code}); retrying`);
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 5000);
  };
}

if (!token) show("down", "no token: open the URL the server printed (…/?token=…)");
else connect();
