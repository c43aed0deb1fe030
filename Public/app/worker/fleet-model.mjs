// The fleet's instances in the worker, for the instance picker: `GET /api/fleet` every 2 s once the server's hello
// said it is a fleet dashboard, and the merged stream's `fleet` messages (the session keeps the latest) as they
// come. Its update section, `fleet`, is absent on a single server.

import { instanceRow, readFleetList } from "../../lib/fleet.mjs";
import { getJSON } from "./http.mjs";

/** The list is read this often (the fleet dashboard sends it every 2 s on the merged stream too). */
export const pollIntervalMs = 2000;

/**
 * @typedef {"unknown"|"single"|"all"|"instance"} FleetMode   what the stream is: not known before the hello, a
 *   single server, every instance of a fleet merged, or one instance of a fleet
 */

/**
 * The mode a session's hello says.
 * @param {{instance: string|null|undefined}} session
 * @returns {FleetMode}
 */
export function fleetMode(session) {
  if (session.instance === undefined) return "unknown";
  if (session.instance === null) return "single";
  return session.instance === "*" ? "all" : "instance";
}

export class FleetModel {
  /**
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch,
   *   clock?: {setRepeat?: (f: () => void, ms: number) => any, clearRepeat?: (t: any) => void}}} options
   */
  constructor({ origin, token, onChange, fetch = (...args) => globalThis.fetch(...args), clock = {} }) {
    Object.assign(this, { origin, token, onChange, fetch });
    this.setRepeat = clock.setRepeat ?? ((f, ms) => setInterval(f, ms));
    /** @type {import("../../lib/fleet.mjs").FleetList|null} */
    this.list = null;
    this.message = "";
    this.poll = null;
    this.loading = false;
    this.session = null;
    this.seenVersion = -1;
    this.version = 0;
    this.sent = "";
  }

  /**
   * Follows a session (the stream of the instance picked, or of all of them): starts polling once its hello said
   * it is a fleet dashboard, and takes the lists it receives.
   * @param {import("./session.mjs").Session} session
   */
  follow(session) {
    if (session !== this.session) {
      this.session = session;
      this.seenVersion = -1;
    }
    if (session.fleetList && session.versions.fleet !== this.seenVersion) {
      this.seenVersion = session.versions.fleet;
      this.list = session.fleetList;
      this.version++;
    }
    const mode = fleetMode(session);
    if ((mode === "all" || mode === "instance") && this.poll === null) {
      this.poll = this.setRepeat(() => this.load(), pollIntervalMs);
      this.load();
    }
  }

  /** `GET /api/fleet`. */
  async load() {
    if (this.loading) return;
    this.loading = true;
    const answer = await getJSON(this, "/api/fleet", "the fleet's instances", readFleetList);
    this.loading = false;
    if (answer.status === "ready") {
      this.list = answer.body;
      this.message = "";
    } else {
      this.message = answer.message;
    }
    this.version++;
    this.onChange();
  }

  /**
   * Whether `id` is an instance of the fleet as last listed (undefined when no list came yet).
   * @param {string} id
   */
  knows(id) {
    return this.list ? this.list.instances.some((i) => i.id === id) : undefined;
  }

  /**
   * The instance picker's section, or undefined on a single server and when the page has it already.
   * @param {number} now milliseconds
   * @param {{following: string, moved: number}} worker the instance the worker follows ("" for all of them), and
   *   how often it moved on its own (to all instances, when the one asked for is not in the fleet)
   */
  build(now, { following, moved }) {
    const session = this.session;
    const mode = session ? fleetMode(session) : "unknown";
    if (mode !== "all" && mode !== "instance") return undefined;
    const instances = (this.list?.instances ?? []).map((instance) => instanceRow(instance, now));
    const picked = session.instance;
    const current = instances.find((i) => i.id === picked) ?? null;
    const section = {
      fleet: session.fleetName ?? this.list?.fleet ?? "",
      mode,
      picked,
      instances,
      live: instances.filter((i) => i.live).length,
      message: this.message,
      following,
      moved,
      // What the fleet dashboard itself refuses: on one instance's stream the hello's read-only may be the
      // instance's own (the list says which).
      dashboardReadOnly: session.readOnly && !(current?.readOnly ?? false),
    };
    const signature = JSON.stringify(section);
    if (signature === this.sent) return undefined;
    this.sent = signature;
    return section;
  }
}
