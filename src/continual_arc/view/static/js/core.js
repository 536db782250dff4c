/* Continual-ARC viewer: the shared namespace, loading documents, small DOM and number helpers.
 *
 * Documents are loaded by name ("index", "run/r0", "run/r0/i/5", ...). With a server (mode.js says
 * "live") they are fetched from /api/<name>; in a static export they are scripts data/<name>.js
 * that call CAV.deliver(name, document), since a page opened from the file system may load
 * scripts but not fetch JSON. Either way a document is loaded once, when it is first asked for.
 */
"use strict";

window.CAV = window.CAV || {};

(function (CAV) {
  const mode = (window.CAV_MODE && window.CAV_MODE.kind) || "export";
  CAV.live = mode === "live";
  // A site of the Tasks page alone holds no run: the page then asks for no run's document.
  CAV.hasRuns = !(window.CAV_MODE && window.CAV_MODE.runs === false);
  CAV.state = { timings: {} };

  const cache = new Map();
  const waiting = new Map();

  CAV.deliver = function (name, value) {
    const resolve = waiting.get(name);
    waiting.delete(name);
    if (resolve) resolve(value);
  };

  function viaScript(name) {
    return new Promise((resolve, reject) => {
      waiting.set(name, resolve);
      const tag = document.createElement("script");
      tag.src = "data/" + name.split("/").map(encodeURIComponent).join("/") + ".js";
      tag.onload = () => {
        tag.remove();
        if (waiting.has(name)) {
          waiting.delete(name);
          reject(new Error(name + ": the file did not deliver its document"));
        }
      };
      tag.onerror = () => {
        tag.remove();
        waiting.delete(name);
        reject(new Error(name + ": not in this export"));
      };
      document.head.appendChild(tag);
    });
  }

  async function viaFetch(name) {
    const reply = await fetch("api/" + name, { headers: { Accept: "application/json" } });
    const value = await reply.json();
    if (!reply.ok) throw new Error(value.error || reply.statusText);
    return value;
  }

  /* A document by name, loaded once (replays are not kept: there may be thousands). */
  CAV.load = function (name, keep = true) {
    if (keep && cache.has(name)) return cache.get(name);
    const promise = CAV.live ? viaFetch(name) : viaScript(name);
    if (keep) {
      cache.set(name, promise);
      promise.catch(() => cache.delete(name));
    }
    return promise;
  };

  CAV.post = async function (path, body) {
    const reply = await fetch("api/" + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const value = await reply.json();
    if (!reply.ok) throw new Error(value.error || reply.statusText);
    return value;
  };

  /* el("div.cls#id", {attr: value, onclick: fn}, child, "text", ...) */
  CAV.el = function (spec, attrs, ...children) {
    const [tagAndClasses, id] = spec.split("#");
    const [tag, ...classes] = tagAndClasses.split(".");
    const node = document.createElement(tag || "div");
    if (classes.length) node.className = classes.join(" ");
    if (id) node.id = id;
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "text") node.textContent = value;
      else if (key === "style") node.style.cssText = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  CAV.clear = function (node, ...children) {
    node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
    return node;
  };

  // The command line's rounding, which every number the viewer shows follows: Python's format(x,
  // ".Nf"), to the nearest of the exact binary value, and a tie (0.25 to one decimal) to the even
  // digit. toFixed rounds a tie up, so on a tie the even neighbour is taken here instead. A tie is
  // an exact decimal expansion ending in 5 one place past the digits kept (toFixed(100) is exact
  // for every number the viewer shows).
  CAV.fmt = function (value, digits = 1) {
    if (value === null || value === undefined || Number.isNaN(Number(value))) return "–";
    const x = Number(value);
    const [whole, frac] = Math.abs(x).toFixed(100).split(".");
    if (!/^50*$/.test(frac.slice(digits))) return x.toFixed(digits);
    const kept = digits ? whole + "." + frac.slice(0, digits) : whole;
    const even = Number(kept.slice(-1)) % 2 === 0;
    return even ? (x < 0 || Object.is(x, -0) ? "-" : "") + kept : x.toFixed(digits);
  };

  // The decimals the command line prints, by kind of number: shares (0 to 1) with 2, points of
  // budget (U, P, T, charges) with 1.
  CAV.DECIMALS = { share: 2, points: 1 };

  CAV.estimate = function (e, digits = CAV.DECIMALS.share) {
    if (!e || e.value === null || e.value === undefined) return e && e.note ? "undefined (" + e.note + ")" : "–";
    const interval = e.low === null || e.low === undefined ? "" : " [" + CAV.fmt(e.low, digits) + ", " + CAV.fmt(e.high, digits) + "]";
    return CAV.fmt(e.value, digits) + interval;
  };

  CAV.ordinal = function (k) {
    const n = k + 1;
    const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
    return n + suffix;
  };

  CAV.shortClass = function (path) {
    return path ? String(path).split(":").pop() : "unknown learner";
  };

  /* A stable colour per task: hues spread by the golden angle over the task's index in the run. */
  CAV.taskColour = function (index, alpha = 1) {
    const hue = (index * 137.508) % 360;
    const light = 42 + (index % 3) * 9;
    return "hsla(" + hue.toFixed(1) + ", 62%, " + light + "%, " + alpha + ")";
  };

  CAV.LEARNER = "#1f5fa8";
  CAV.BESIDE = "#b04a3a";

  // What the page should know that is not a fault (a run stored as its records only): information,
  // drawn apart from the problems' warning box.
  CAV.notes = function (list) {
    if (!list || !list.length) return null;
    return CAV.el("div.notes", { role: "note" }, CAV.el("ul", {}, list.map((p) => CAV.el("li", {}, p))));
  };

  CAV.problems = function (list, title) {
    if (!list || !list.length) return null;
    return CAV.el(
      "div.problems",
      { role: "note" },
      CAV.el("strong", {}, title || "What is missing"),
      CAV.el("ul", {}, list.map((p) => CAV.el("li", {}, p)))
    );
  };
})(window.CAV);
