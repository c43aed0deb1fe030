// Each instance's answer to a request sent to every live instance of a fleet (docs/fleet.md): one line per
// instance, ok with the change it made (a link to it when it is the instance the page shows), or the error code and
// message it answered.

import { answersSummary } from "../../lib/fleet.mjs";
import { h } from "./dom.mjs";

/**
 * @param {import("../../lib/fleet.mjs").InstanceAnswer[]} answers
 * @param {{testid: string, shown?: string, onShow?: (seq: number) => void}} options `shown`: the instance the
 *   page shows (its changes can be shown in the log); `testid` names the list
 * @returns {HTMLElement}
 */
export function answersElement(answers, { testid, shown = "", onShow }) {
  const items = answers.map((answer) => {
    const outcome = answer.ok
      ? answer.seq === null
        ? h("span", { className: "muted", textContent: "ok, no change" })
        : answer.instance === shown && onShow
          ? h("button", { type: "button", className: "link-button mono", textContent: `ok #${answer.seq}`, title: "Show in log", on: { click: () => onShow(answer.seq) } })
          : h("span", { className: "mono", textContent: `ok #${answer.seq}` })
      : h("span", { className: "fleet-answer-error", title: answer.error.message, textContent: `${answer.error.code}: ${answer.error.message}` });
    return h("li", {
      className: `fleet-answer ${answer.ok ? "fleet-answer-ok" : "fleet-answer-refused"}`,
      attrs: { "data-testid": "fleet-answer", "data-instance": answer.instance, "data-ok": String(answer.ok), "data-code": answer.ok ? "" : answer.error.code },
    }, h("span", { className: "fleet-answer-mark", attrs: { "aria-hidden": "true" }, textContent: answer.ok ? "✓" : "✕" }),
    h("span", { className: "mono fleet-answer-id", textContent: answer.instance }), outcome);
  });
  return h("div", { className: "fleet-answers", attrs: { "data-testid": testid } },
    h("p", { className: "fleet-answers-summary", textContent: answersSummary(answers) }),
    h("ul", { className: "fleet-answers-list" }, ...items));
}
