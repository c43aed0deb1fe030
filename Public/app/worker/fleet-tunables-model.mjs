// The Tunables panel on a fleet dashboard, for the instance picked: the fleet does not carry the instance's
// `GET /api/tunables` (schema, defaults) nor `POST /tune`, so the rows are the values of its tunables' store in the
// mirror (the file store named live-constants.json, the name docs/tunables.md gives it), each with the control its
// value's type calls for. Single values still go out as `tune` requests, carried to the instance (or to every live
// one) by the fleet; reset all and import say they need the instance's own dashboard.

import { exportText } from "../../lib/tunable-input.mjs";
import { tunableRows } from "../../lib/tunables.mjs";

/** The file name of the tunables' store (docs/tunables.md). */
export const tunablesFileName = "live-constants.json";

/** Why Reset all and Import are not here. */
export const notCarried = "Reset all and Import replace every tunable with POST /tune, which the fleet dashboard does not carry: use the instance's own dashboard for them.";

/**
 * The store holding the tunables among a mirror's stores: a file store whose file is live-constants.json.
 * @param {Map<string, {id: string, storage: string}>} stores
 * @returns {string|null}
 */
export function findTunablesStore(stores) {
  for (const store of stores.values()) {
    if (store.storage.startsWith("file:") && store.storage.endsWith(`/${tunablesFileName}`)) return store.id;
  }
  return null;
}

export class FleetTunablesModel {
  /**
   * @param {import("./session.mjs").Session} session the picked instance's
   * @param {{onChange: () => void}} options
   */
  constructor(session, { onChange }) {
    Object.assign(this, { session, onChange });
    this.sent = "";
  }

  /** @returns {Map<string, any>} the tunables' values, empty when there is no tunables store */
  values() {
    const id = findTunablesStore(this.session.mirror.stores);
    return (id && this.session.mirror.stores.get(id)?.root) || new Map();
  }

  /**
   * The panel's messages: export works from the values here; reset all and import are refused with the reason.
   * @param {{action: string}} message
   * @param {(data: object) => void} answer
   */
  act({ action }, answer) {
    switch (action) {
      case "export": {
        const id = findTunablesStore(this.session.mirror.stores);
        return answer({ text: id ? exportText(this.values()) : null });
      }
      case "preview": return answer({ ok: false, message: notCarried });
      case "replace": return answer({ ok: false, message: notCarried, seq: null });
    }
  }

  /** The panel's section (the TunablesModel's shape, `fleet: true`), or undefined when the page has it already. */
  build() {
    const { session } = this;
    const store = findTunablesStore(session.mirror.stores);
    const instance = session.instance ?? "";
    let status = "ready";
    let message = "";
    if (!store) {
      status = session.mirror.seq === null ? "loading" : "unavailable";
      message = `${instance} has no tunables store in its state (the dashboard looks for a file store named ${tunablesFileName}). The fleet dashboard does not carry an instance's GET /api/tunables: open the instance's own dashboard to see the tunables it serves.`;
    }
    const values = this.values();
    // No defaults through the fleet: the values stand in for them, so no row reads "modified" or "new".
    const rows = store ? tunableRows({ store, values, defaults: values, schema: null, additionalKeys: true }, values) : [];
    const section = { status, message, store: store ?? "", live: true, additionalKeys: store !== null, fleet: true, instance, rows };
    const signature = JSON.stringify(section);
    if (signature === this.sent) return undefined;
    this.sent = signature;
    return section;
  }
}

/**
 * A feature model for a panel whose routes a fleet dashboard does not carry: its section says so.
 * @param {string} message
 */
export function unavailableModel(message) {
  return class FleetUnavailableModel {
    constructor() {
      this.sent = false;
    }

    act(_message, answer) {
      answer({ ok: false, message });
    }

    build() {
      if (this.sent) return undefined;
      this.sent = true;
      return { status: "unavailable", message, rows: [], containers: [], statuses: [], rules: [], violations: [] };
    }
  };
}
