// The top bar: which server this is (name, pid, version), the connection state, the read-only badge, the Record
// button and the live counters. While time travelling it names the recording and says "replay". On a fleet
// dashboard it names the fleet, and the instance picker (put in `fleetSlot` by the page) follows.

import { formatCount } from "../../lib/format.mjs";
import { h, icon, setAttr, setProp, setText } from "./dom.mjs";

const phaseText = {
  connecting: "connecting…",
  connected: "connected",
  reconnecting: "reconnecting…",
  stopped: "not connected",
  replay: "replay",
};

export class Header {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.name = h("span", { className: "server-name" });
    this.meta = h("span", { className: "server-meta" });
    this.stateText = h("span", { className: "conn-text" });
    this.state = h("span", { className: "conn", attrs: { "data-testid": "connection-state", role: "status" } },
      h("i", { className: "conn-dot" }), this.stateText);
    this.readOnly = h("span", {
      className: "badge badge-readonly",
      hidden: true,
      title: "This server refuses writes (started with --read-only)",
      attrs: { "data-testid": "read-only-badge" },
    }, icon("lock"), "read-only");
    this.seq = h("span", { className: "stat", title: "Last change applied to the dashboard's copy of the stores" });
    this.rate = h("span", { className: "stat", title: "Changes per second arriving from the server" });
    /** Where the page puts the top bar's actions (the Record button). */
    this.actions = h("span", { className: "topbar-actions" });
    /** Where the page puts the instance picker. */
    this.fleetSlot = h("span", { className: "topbar-fleet" });
    element.append(
      h("span", { className: "brand" }, icon("logo"), h("span", { className: "brand-name", textContent: "Keyscope" })),
      h("span", { className: "server" }, this.name, this.meta),
      this.fleetSlot,
      this.state,
      this.readOnly,
      h("span", { className: "topbar-spacer" }),
      this.actions,
      this.rate,
      this.seq,
    );
  }

  /**
   * @param {{conn?: any, stats?: any, replay?: any, fleet?: any}} latest
   * @param {boolean} counters whether to redraw the counters too
   */
  render({ conn, stats, replay, fleet }, counters) {
    if (conn) {
      const server = conn.server;
      const replaying = conn.phase === "replay";
      const picked = fleet && fleet.mode === "instance" ? fleet.instances.find((i) => i.id === fleet.picked) : null;
      setText(this.name, fleet && !replaying ? `fleet ${fleet.fleet}` : server ? server.name : "Keyscope");
      setText(this.meta, replaying && replay?.events !== undefined
        ? `recording · ${formatCount(replay.events)} events${replay.source?.name ? ` · from ${replay.source.name}` : ""}`
        : fleet ? `${fleet.instances.length} instance${fleet.instances.length === 1 ? "" : "s"}`
        : server ? `pid ${server.pid} · v${server.version}` : "");
      setAttr(this.name, "title", fleet && server ? `${server.name}: pid ${server.pid} · v${server.version}` : null);
      let text = phaseText[conn.phase] ?? conn.phase;
      if (conn.phase === "reconnecting" && conn.attempt > 0) text = `reconnecting… (attempt ${conn.attempt})`;
      if (conn.phase === "connected" && conn.outOfSync) text = "connected · resyncing";
      setText(this.stateText, text);
      setAttr(this.state, "data-phase", conn.phase);
      setAttr(this.state, "title", replaying ? "Time travelling in a recording: nothing here is live" : conn.reason || text);
      setProp(this.readOnly, "hidden", !conn.readOnly || replaying);
      setAttr(this.readOnly, "title", picked?.readOnly
        ? `${picked.id} is read-only: it refuses every request from the fleet`
        : fleet ? "This fleet dashboard refuses requests to its instances (started with --read-only)" : "This server refuses writes (started with --read-only)");
      const title = fleet ? `${fleet.mode === "instance" ? fleet.picked : "all instances"} · fleet ${fleet.fleet}` : server?.name;
      document.title = !server ? "Keyscope"
        : replaying ? `${title} (replay) · Keyscope`
        : `${conn.phase === "connected" ? "" : "◌ "}${title} · Keyscope`;
    }
    if (stats && counters) {
      setText(this.seq, stats.seq === null ? "seq —" : `seq ${formatCount(stats.seq)}`);
      setText(this.rate, `${formatCount(stats.rate)}/s`);
    }
  }
}
