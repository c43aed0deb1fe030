// The Record button in the top bar: records the live service into its recordings folder (`POST /api/recordings`),
// shows how many events the recording holds while it runs, and on Stop ends it and saves the file. Hidden while
// time travelling and on servers that keep no recordings; disabled on a read-only server, which refuses to record.

import { formatCount } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { h, icon, saveBlob, setAttr, setProp, setText } from "./dom.mjs";

export class RecordButton {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.drawn = "";
    this.model = null;
    this.label = h("span", {});
    this.element = h("button", {
      type: "button", className: "button record-button", attrs: { "data-testid": "record-button", "data-state": "idle" },
      on: { click: () => this.click() },
    }, h("i", { className: "record-dot", attrs: { "aria-hidden": "true" } }), this.label);
  }

  async click() {
    const model = this.model;
    if (model?.busy) return;
    if (model?.recording) {
      const answer = await this.app.bridge.ask({ type: ToWorker.recordings, action: "stop" });
      if (!answer.ok) return this.app.toast(answer.message, "error");
      saveBlob(answer.blob, answer.name);
      this.app.toast(`Saved ${answer.name} (${formatCount(answer.events ?? 0)} events).`, "ok");
      return;
    }
    const answer = await this.app.bridge.ask({ type: ToWorker.recordings, action: "start" });
    if (!answer.ok) this.app.toast(answer.message, "error");
  }

  /**
   * @param {any} model the worker's recordings section
   * @param {boolean} replaying
   */
  render(model, replaying) {
    if (model) this.model = model;
    const m = this.model;
    const state = m?.busy ? "busy" : m?.recording ? "recording" : "idle";
    const text = m?.busy === "starting" ? "Starting…" : m?.busy === "stopping" ? "Stopping…"
      : m?.recording ? `Stop (${formatCount(m.recording.events)} event${m.recording.events === 1 ? "" : "s"})` : "Record";
    const hidden = replaying || m?.status === "none";
    const readOnly = this.app.readOnly() && !m?.recording;
    const key = `${state}\u0000${text}\u0000${hidden}\u0000${readOnly}`;
    if (key === this.drawn) return;
    this.drawn = key;
    setProp(this.element, "hidden", hidden);
    setText(this.label, text);
    setAttr(this.element, "data-state", state);
    setProp(this.element, "disabled", state === "busy" || readOnly);
    setAttr(this.element, "title", m?.recording
      ? `Recording the service into ${m.recording.name}: Stop ends it and saves the file`
      : readOnly ? "The server is read-only: it does not start recordings (a recording writes a file)"
        : "Record the service's changes into a .kslog file (replay it in the Replay tab)");
  }
}
