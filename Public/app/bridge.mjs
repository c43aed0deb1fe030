// The page's side of the worker: messages out, updates and answers in. Requests that expect an answer (a write's
// reply, a value to edit, completions) get a promise, matched by a tag.

import { ToPage } from "../lib/messages.mjs";

export class Bridge {
  /**
   * @param {Worker} worker
   * @param {{onUpdate: (update: any) => void, onSelect: (path: string) => void}} handlers
   */
  constructor(worker, { onUpdate, onSelect }) {
    this.worker = worker;
    this.nextTag = 1;
    /** @type {Map<number, (answer: any) => void>} */
    this.waiting = new Map();
    worker.onmessage = ({ data }) => {
      if (data.type === ToPage.update) onUpdate(data);
      else if (data.type === ToPage.select) onSelect(data.path);
      else {
        const resolve = this.waiting.get(data.tag);
        this.waiting.delete(data.tag);
        resolve?.(data);
      }
    };
  }

  /** @param {object} message */
  post(message) {
    this.worker.postMessage(message);
  }

  /**
   * Posts a message and resolves with the worker's answer to it.
   * @param {object} message
   * @returns {Promise<any>}
   */
  ask(message) {
    const tag = this.nextTag++;
    return new Promise((resolve) => {
      this.waiting.set(tag, resolve);
      this.worker.postMessage({ ...message, tag });
    });
  }
}
