import { test } from "node:test";
import assert from "node:assert/strict";
import { FeatureMessage, ToPage, ToWorker, answerType } from "../../Public/lib/messages.mjs";
import { featurePanels, livePanels, panelLabel, panelSpecs, panels } from "../../Public/lib/panels.mjs";
import { panels as urlPanels, readViewState } from "../../Public/lib/url-state.mjs";
import { featureModels } from "../../Public/app/worker/feature-models.mjs";

test("the panel table: unique names in tab order, a label each, feature panels live-only", () => {
  assert.equal(new Set(panels).size, panels.length);
  assert.deepEqual(panels.slice(0, 2), ["stores", "log"], "keys 1 and 2 stay where users learnt them");
  for (const spec of panelSpecs) assert.ok(spec.label && panelLabel(spec.name) === spec.label, spec.name);
  for (const name of featurePanels) assert.ok(livePanels.includes(name), `${name} shows the live server only`);
  assert.deepEqual(urlPanels, panels, "the URL reads the same table");
  assert.equal(readViewState("?panel=watches").panel, "watches");
  assert.equal(readViewState("?panel=nope").panel, "stores");
});

test("every feature panel has a worker model with build and act, and no model lacks a panel", () => {
  assert.deepEqual(Object.keys(featureModels).sort(), [...featurePanels].sort());
  for (const [name, Model] of Object.entries(featureModels)) {
    assert.equal(typeof Model.prototype.build, "function", `${name}.build`);
    assert.equal(typeof Model.prototype.act, "function", `${name}.act`);
  }
});

test("message types: one name each way, feature messages named after their panel", () => {
  const toWorker = Object.values(ToWorker);
  assert.equal(new Set(toWorker).size, toWorker.length);
  for (const name of featurePanels) {
    assert.ok(!toWorker.includes(name), `${name} does not collide with a core message`);
    assert.equal(FeatureMessage[name], name);
    assert.equal(answerType(name), `${name}-answer`);
    assert.ok(!Object.values(ToPage).includes(answerType(name)));
  }
});

test("a feature model acts on its panel's messages and answers through the callback", async () => {
  const session = { server: null, epoch: 0, mirror: { stores: new Map() }, versions: { data: 0 } };
  const model = new featureModels.tunables(session, { origin: "http://127.0.0.1:1", token: "t", onChange: () => {} });
  const answers = [];
  model.act({ action: "export" }, (data) => answers.push(data));
  assert.deepEqual(answers, [{ text: null }], "no tunables loaded: nothing to export");
  model.act({ action: "preview", source: "defaults" }, (data) => answers.push(data));
  assert.deepEqual(answers[1], { ok: false, message: "This server has no tunables." });
});
