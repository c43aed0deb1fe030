// The time-travel bar, under the tabs while a recording is replayed: step back, play or pause, step forward, a
// scrubber over every event, the selected seq and its time, the speed, and Exit replay. The worker makes the
// moves; the scrubber sends at most one seek per animation frame while it is dragged.

import { formatCount } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { formatClock } from "../../lib/time.mjs";
import { speeds } from "../../lib/timeline.mjs";
import { h, icon, setAttr, setProp, setText } from "./dom.mjs";

const speedLabels = { "0.5": "0.5×", 1: "1×", 2: "2×", 10: "10×", max: "max" };

export class ReplayBar {
  /**
   * @param {HTMLElement} element
   * @param {any} app
   */
  constructor(element, app) {
    this.app = app;
    this.element = element;
    this.drawn = null;
    this.dragging = false;
    this.pendingSeq = null;
    const post = (message) => app.bridge.post({ type: ToWorker.replay, ...message });
    this.name = h("span", { className: "replay-name mono", attrs: { "data-testid": "replay-name" } });
    this.stepBack = h("button", { type: "button", className: "icon-button replay-icon", title: "Step back one event (,)", attrs: { "data-testid": "replay-step-back", "aria-label": "Step back" }, on: { click: () => post({ action: "step", delta: -1 }) } }, icon("step-back"));
    this.play = h("button", { type: "button", className: "button replay-play", attrs: { "data-testid": "replay-play" }, on: { click: () => post({ action: this.drawn?.playing ? "pause" : "play" }) } });
    this.stepForward = h("button", { type: "button", className: "icon-button replay-icon", title: "Step forward one event (.)", attrs: { "data-testid": "replay-step-forward", "aria-label": "Step forward" }, on: { click: () => post({ action: "step", delta: 1 }) } }, icon("step-forward"));
    this.scrubber = h("input", {
      type: "range", className: "replay-scrubber", min: "0", max: "0", step: "1", value: "0",
      attrs: { "data-testid": "replay-scrubber", "aria-label": "Event" },
      on: {
        input: () => this.scrub(),
        pointerdown: () => { this.dragging = true; },
        pointerup: () => { this.dragging = false; },
        change: () => { this.dragging = false; },
      },
    });
    this.seq = h("span", { className: "replay-seq mono", attrs: { "data-testid": "replay-seq" } });
    this.time = h("span", { className: "replay-time mono", attrs: { "data-testid": "replay-time" } });
    this.speed = h("select", {
      className: "select replay-speed", title: "Playback speed (of the recorded pace)", attrs: { "data-testid": "replay-speed", "aria-label": "Speed" },
      on: { change: () => post({ action: "speed", speed: this.speed.value }) },
    }, ...speeds.map((speed) => h("option", { value: speed, textContent: speedLabels[speed] })));
    this.exit = h("button", { type: "button", className: "button", title: "Back to the live server", attrs: { "data-testid": "replay-exit" }, on: { click: () => app.exitReplay() } }, icon("close"), "Exit replay");
    element.className = "replay-bar";
    element.hidden = true;
    element.setAttribute("data-testid", "replay-bar");
    element.setAttribute("role", "toolbar");
    element.setAttribute("aria-label", "Time travel");
    element.append(
      h("span", { className: "replay-badge" }, icon("history"), "Replay"),
      this.name,
      h("span", { className: "replay-controls" }, this.stepBack, this.play, this.stepForward),
      this.scrubber,
      h("span", { className: "replay-where" }, this.seq, this.time),
      this.speed,
      this.exit,
    );
  }

  /** The scrubber moved: one seek per frame at most, the latest position. */
  scrub() {
    const first = this.pendingSeq === null;
    this.pendingSeq = Number(this.scrubber.value);
    setText(this.seq, this.seqText(this.pendingSeq, this.drawn?.events ?? 0));
    if (!first) return;
    requestAnimationFrame(() => {
      const seq = this.pendingSeq;
      this.pendingSeq = null;
      this.app.bridge.post({ type: ToWorker.replay, action: "seek", seq });
    });
  }

  seqText(seq, events) {
    return `#${formatCount(seq)} / ${formatCount(events)}`;
  }

  /** @param {any} replay the worker's replay section */
  render(replay) {
    const active = Boolean(replay?.active);
    setProp(this.element, "hidden", !active);
    if (!active || replay === this.drawn) return;
    this.drawn = replay;
    setText(this.name, replay.name);
    setAttr(this.name, "title", replay.id ? `${replay.id} (from the server)` : `${replay.name} (uploaded)`);
    setProp(this.scrubber, "max", String(replay.events));
    // While the reader drags, the thumb stays under the pointer; the worker catches up.
    if (!this.dragging && this.pendingSeq === null) setProp(this.scrubber, "value", String(replay.seq));
    if (this.pendingSeq === null) setText(this.seq, this.seqText(replay.seq, replay.events));
    setAttr(this.scrubber, "aria-valuetext", `event ${replay.seq} of ${replay.events}`);
    setText(this.time, `${formatClock(replay.time)} · ${replay.offset}`);
    setAttr(this.time, "title", `${replay.time} (recorded ${replay.startTime} … ${replay.endTime})`);
    const label = replay.playing ? "Pause" : "Play";
    if (this.play.dataset.label !== label) {
      this.play.dataset.label = label;
      this.play.replaceChildren(icon(replay.playing ? "pause" : "play"), label);
    }
    setAttr(this.play, "aria-pressed", String(replay.playing));
    setAttr(this.play, "title", replay.playing ? "Pause" : replay.seq >= replay.events ? "Play from the start" : "Play from here");
    setProp(this.stepBack, "disabled", replay.seq <= 0);
    setProp(this.stepForward, "disabled", replay.seq >= replay.events);
    if (this.speed.value !== replay.speed) this.speed.value = replay.speed;
  }
}
