// The feature panels' models of the live session (feature-models.mjs), kept by panel name: made for a single
// server or for a fleet dashboard, told which panel is shown, told of changes, asked for their sections, and handed
// the page's messages.

import { featurePanels } from "../../lib/panels.mjs";
import { featureModels } from "./feature-models.mjs";

export class FeaturePanels {
  /** @param {{origin: string, token: string, onChange: () => void}} options what every model is made with */
  constructor(options) {
    this.options = options;
    /** @type {Map<string, any>} */
    this.models = new Map();
    /** Whether the models show an instance of a fleet dashboard. */
    this.onFleet = false;
  }

  /**
   * Makes the models for a session: a single server's, or one instance's of a fleet dashboard (the same models:
   * their requests name the instance). A model that reads no session (`static sessionFree`, the Diff's) keeps what
   * it has; one replaced is told it is hidden (its timers stop).
   * @param {import("./session.mjs").Session} session
   * @param {boolean} onFleet
   */
  make(session, onFleet) {
    const kinds = featureModels;
    this.onFleet = onFleet;
    for (const name of featurePanels) {
      const kept = this.models.get(name);
      if (kept && kept.constructor === kinds[name] && kinds[name].sessionFree) continue;
      kept?.setShown?.(false);
      this.models.set(name, new kinds[name](session, this.options));
    }
  }

  /** @param {string} panel the panel shown: its model fetches while it is, the others stop */
  show(panel) {
    for (const [name, model] of this.models) model.setShown?.(panel === name);
  }

  /** @param {import("../../lib/protocol.mjs").Entry[]} entries changes that arrived */
  noteChanges(entries) {
    for (const model of this.models.values()) model.noteChanges?.(entries);
  }

  /**
   * The shown panel's section, if it is a feature panel's and the page lacks it.
   * @param {string} panel
   */
  build(panel) {
    return this.models.get(panel)?.build();
  }

  /**
   * A feature panel's message (its type is the panel's name); false when no panel has that name.
   * @param {{type: string}} message
   * @param {(data: object) => void} answer
   */
  act(message, answer) {
    const model = this.models.get(message.type);
    if (!model) return false;
    model.act(message, answer);
    return true;
  }
}
