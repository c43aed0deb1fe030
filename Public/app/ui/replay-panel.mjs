// The Replay tab: load a recording (a `.kslog` file chosen or dropped, or one the server offers), follow its
// reading, and, while it is replayed, what it holds. The worker reads it; the replay bar moves through it.

import { formatCount } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { formatBytes } from "../../lib/recordings.mjs";
import { formatClock, parseTime } from "../../lib/time.mjs";
import { h, icon, saveBlob, setProp, setText } from "./dom.mjs";

export class ReplayPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.drawnReplay = undefined;
    this.drawnFiles = undefined;
    this.file = h("input", {
      type: "file", accept: ".kslog,application/x-ndjson,application/json,text/plain", hidden: true,
      attrs: { "data-testid": "replay-file" }, on: { change: () => this.chosen() },
    });
    this.choose = h("button", { type: "button", className: "button button-primary", attrs: { "data-testid": "replay-choose" }, on: { click: () => this.file.click() } }, icon("upload"), "Choose a file…");
    this.drop = h("div", { className: "replay-drop", attrs: { "data-testid": "replay-drop" } },
      icon("upload"),
      h("p", { className: "replay-drop-title", textContent: "Drop a .kslog recording here" }),
      h("p", { className: "muted", textContent: "It is read in this page only, never sent anywhere." }),
      this.choose, this.file);
    for (const type of ["dragenter", "dragover"]) this.drop.addEventListener(type, () => this.drop.classList.add("replay-drop-over"));
    for (const type of ["dragleave", "drop"]) this.drop.addEventListener(type, () => this.drop.classList.remove("replay-drop-over"));
    this.progressText = h("span", {});
    this.progressBar = h("progress", { className: "replay-progress-bar", max: 1, value: 0 });
    this.progress = h("div", { className: "replay-progress", hidden: true, attrs: { "data-testid": "replay-progress", role: "status" } }, this.progressText, this.progressBar);
    this.error = h("p", { className: "write-error replay-error", hidden: true, attrs: { "data-testid": "replay-error", role: "alert" } });
    this.summaryTitle = h("h2", {});
    this.facts = h("dl", { className: "facts replay-facts" });
    this.torn = h("p", { className: "readonly-note replay-torn", hidden: true, attrs: { "data-testid": "replay-torn" } });
    this.summary = h("section", { className: "card replay-summary", hidden: true, attrs: { "data-testid": "replay-summary" } },
      this.summaryTitle, this.torn, this.facts,
      h("div", { className: "actions" },
        h("button", { type: "button", className: "button", attrs: { "data-testid": "replay-summary-exit" }, on: { click: () => app.exitReplay() } }, icon("close"), "Exit replay"),
        h("span", { className: "muted", textContent: "The Stores, Log, History and Subscriptions tabs show the recording at the seq the bar above selects." })));
    this.serverStatus = h("p", { className: "muted replay-server-status", attrs: { "data-testid": "replay-server-status" } });
    this.serverBody = h("tbody");
    this.serverTable = h("div", { className: "table-wrap", hidden: true },
      h("table", { className: "table replay-table", attrs: { "aria-label": "Recordings on the server" } },
        h("thead", {}, h("tr", {}, ...["name", "from", "size", "modified", ""].map((label, i) => h("th", { className: i === 2 ? "num" : "", textContent: label })))),
        this.serverBody));
    this.refresh = h("button", { type: "button", className: "icon-button", title: "Read the list again", attrs: { "data-testid": "replay-refresh", "aria-label": "Refresh" }, on: { click: () => app.bridge.post({ type: ToWorker.recordings, action: "reload" }) } }, icon("revert"));
    this.server = h("section", { className: "card replay-server", attrs: { "data-testid": "replay-recordings" } },
      h("h2", { className: "replay-card-head" }, h("span", { textContent: "Recordings on the server" }), this.refresh),
      this.serverStatus, this.serverTable);
    this.element = h("section", { className: "panel panel-replay", id: "panel-replay", attrs: { role: "tabpanel", "data-testid": "replay-panel" } },
      h("div", { className: "replay-body" },
        h("section", { className: "card replay-intro" },
          h("h2", { textContent: "Time travel" }),
          h("p", { className: "muted", textContent: "Load a recording of a service's changes (.kslog) to see its stores, log, history and subscriptions at any moment of it, and play it back. Writes are off while you replay; Exit replay goes back to the live server." }),
          this.drop, this.progress, this.error),
        this.summary, this.server));
  }

  chosen() {
    const file = this.file.files?.[0];
    if (file) this.app.loadRecording(file);
    this.file.value = "";
  }

  /** @param {any} latest */
  render(latest) {
    if (latest.replay !== this.drawnReplay) {
      this.drawnReplay = latest.replay;
      this.renderReplay(latest.replay);
    }
    if (latest.recordings !== this.drawnFiles) {
      this.drawnFiles = latest.recordings;
      this.renderServer(latest.recordings);
    }
  }

  renderReplay(replay) {
    const status = replay?.status ?? "idle";
    const busy = status === "downloading" || status === "loading";
    setProp(this.progress, "hidden", !busy);
    if (busy) {
      const { bytes, total, events } = replay.progress;
      const share = total > 0 ? bytes / total : 0;
      setText(this.progressText, status === "downloading"
        ? `Downloading ${replay.name}… ${formatBytes(bytes)}${total ? ` of ${formatBytes(total)}` : ""}`
        : `Reading ${replay.name}… ${Math.floor(share * 100)}% · ${formatCount(events)} events`);
      setProp(this.progressBar, "value", share);
    }
    setProp(this.error, "hidden", status !== "error");
    setText(this.error, status === "error" ? replay.message : "");
    setProp(this.choose, "disabled", busy);
    const ready = status === "ready" && replay.events !== undefined;
    setProp(this.summary, "hidden", !ready);
    if (!ready) return;
    setText(this.summaryTitle, `Replaying ${replay.name}`);
    setProp(this.torn, "hidden", replay.tornBytes === 0);
    setText(this.torn, `The file's last line was incomplete (a torn tail: ${formatCount(replay.tornBytes)} bytes without their newline, as a crash leaves them). They are left out; the recording ends at #${formatCount(replay.events)}.`);
    const span = (parseTime(replay.endTime) - parseTime(replay.startTime)) / 1000;
    const source = replay.source ? [replay.source.name, replay.source.host, replay.source.pid ? `pid ${replay.source.pid}` : ""].filter(Boolean).join(" · ") : "";
    const rows = [
      ["events", formatCount(replay.events)],
      ["stores", formatCount(replay.stores)],
      ["from", `${replay.startTime} (${formatClock(replay.startTime)} here)`],
      ["to", `${replay.endTime} · ${Number.isFinite(span) ? `${span.toFixed(span < 10 ? 3 : 1)} s` : "?"}`],
      ...(source ? [["source", source]] : []),
      ["file", `${formatBytes(replay.bytes)}${replay.id ? ` · ${replay.id}` : " · uploaded"}`],
      ["index", `${formatBytes(replay.indexBytes)} · a snapshot every ${formatCount(replay.checkpointEvery)} events (${formatCount(replay.checkpoints)})`],
      ["read in", `${(replay.loadMs / 1000).toFixed(2)} s · last jump ${replay.seekMs} ms`],
      ["subscriptions", replay.subscriptionLists ? `${formatCount(replay.subscriptionLists)} list${replay.subscriptionLists === 1 ? "" : "s"} recorded` : "none recorded"],
    ];
    this.facts.replaceChildren(...rows.flatMap(([label, value]) => [h("dt", { textContent: label }), h("dd", { className: "mono", textContent: value })]));
  }

  renderServer(model) {
    const status = model?.status ?? "idle";
    const files = model?.files ?? [];
    const text = status === "idle" || status === "loading" ? "Reading the server's recordings…"
      : status === "none" ? (model.notHere ? model.message : "This server offers no recordings: choose or drop a file above.")
      : status === "error" ? model.message
      : files.length === 0 ? "None yet: the Record button in the top bar makes one." : "";
    setText(this.serverStatus, text);
    setProp(this.serverStatus, "hidden", text === "");
    setProp(this.serverTable, "hidden", files.length === 0);
    setProp(this.refresh, "hidden", status === "none");
    this.serverBody.replaceChildren(...files.map((file) => this.fileRow(file)));
  }

  fileRow(file) {
    const modified = parseTime(file.modified);
    return h("tr", { attrs: { "data-testid": "replay-recording", "data-id": file.id } },
      h("td", { className: "mono", textContent: file.name }),
      h("td", { className: "muted", textContent: file.source }),
      h("td", { className: "num mono", textContent: formatBytes(file.bytes) }),
      h("td", { className: "muted", title: file.modified, textContent: Number.isNaN(modified) ? file.modified : new Date(modified).toLocaleString() }),
      h("td", { className: "replay-row-actions" },
        h("button", { type: "button", className: "button", attrs: { "data-testid": "replay-open" }, on: { click: () => this.app.openServerRecording(file.id) } }, icon("play"), "Replay"),
        h("button", { type: "button", className: "icon-button", title: `Download ${file.name}`, attrs: { "data-testid": "replay-download", "aria-label": `Download ${file.name}` }, on: { click: () => this.download(file) } }, icon("download"))));
  }

  async download(file) {
    const answer = await this.app.bridge.ask({ type: ToWorker.recordings, action: "download", id: file.id });
    if (answer.ok) saveBlob(answer.blob, answer.name);
    else this.app.toast(answer.message, "error");
  }

  handleKey() {
    return false;
  }

  escape() {
    return false;
  }
}
