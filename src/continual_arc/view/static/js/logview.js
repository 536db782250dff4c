/* What a trajectory holds beyond its events: the learner's log, what plug-ins said, an error.
 *
 * Known parts of a learner's log are drawn for reading: `messages` (a model's conversation, with
 * its tool calls), `events` (the program library's notes, with candidate programs), `solved_by`,
 * `kept` or `memory` (what it kept after the verdict), and `files` (a harness's files by version:
 * {path: [text or {version, content}, ...]} or [{path, version, content}, ...]). Anything else is
 * shown as a JSON tree, so nothing a learner reports is hidden.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const KNOWN = ["messages", "events", "solved_by", "kept", "memory", "files"];

  CAV.jsonTree = function (value, label, open = false) {
    if (value === null || typeof value !== "object") {
      return el("div.json-leaf", {}, label ? el("span.json-key", {}, label + ": ") : null, el("code", {}, JSON.stringify(value)));
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const summary = (label ? label + " " : "") + (Array.isArray(value) ? "[" + entries.length + "]" : "{" + entries.length + "}");
    return el("details.json", { open: open || null }, el("summary", {}, summary),
      entries.slice(0, 500).map(([k, v]) => CAV.jsonTree(v, k)),
      entries.length > 500 ? el("div.json-leaf", {}, "… " + (entries.length - 500) + " more") : null);
  };

  function text(content) {
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : p.text || JSON.stringify(p))).join("\n");
    return content === null || content === undefined ? "" : JSON.stringify(content, null, 1);
  }

  function toolCall(call) {
    const fn = call.function || call;
    let args = fn.arguments;
    try {
      args = JSON.stringify(JSON.parse(args), null, 1);
    } catch (e) {
      args = text(args);
    }
    return el("div.tool-call", {}, el("span.tool-name", {}, "→ " + (fn.name || "tool")), el("pre", {}, args));
  }

  function messages(list) {
    return el("div.messages", {}, list.map((m, i) =>
      el("div.message.role-" + String(m.role || "unknown").replace(/[^a-z]/g, ""), { dataset: { index: i } },
        el("div.role", {}, (m.role || "?") + (m.name ? " · " + m.name : "") + (m.tool_call_id ? " · " + m.tool_call_id : "")),
        m.content ? el("pre", {}, text(m.content)) : null,
        (m.tool_calls || []).map(toolCall))));
  }

  function eventLine(event) {
    const parts = [];
    const programs = event.programs || event.candidates;
    for (const [key, value] of Object.entries(event)) {
      if (key === "programs" || key === "candidates") continue;
      parts.push(key + " " + (typeof value === "object" ? JSON.stringify(value) : value));
    }
    return el("li", {}, parts.join(" · "),
      Array.isArray(programs) && programs.length
        ? el("ol.programs", {}, programs.map((p) => el("li", {}, el("pre", {}, text(p)))))
        : Array.isArray(programs) ? " · no candidate program" : null);
  }

  function versionsOf(files) {
    const out = new Map();
    const add = (path, v, i) => {
      if (!out.has(path)) out.set(path, []);
      const content = typeof v === "string" ? v : v.content !== undefined ? v.content : JSON.stringify(v);
      out.get(path).push({ version: typeof v === "object" && v.version !== undefined ? v.version : i + 1, content, at: v.at || v.step });
    };
    if (Array.isArray(files)) files.forEach((f, i) => add(f.path || "file", f, i));
    else Object.entries(files).forEach(([path, vs]) => (Array.isArray(vs) ? vs : [vs]).forEach((v, i) => add(path, v, i)));
    return out;
  }

  function filesView(files) {
    const byPath = versionsOf(files);
    return el("div.files", {}, [...byPath.entries()].map(([path, versions]) => {
      const body = el("pre.file-body", {}, text(versions[versions.length - 1].content));
      const picker = el("select", { "aria-label": "version of " + path, onchange: (e) => { body.textContent = text(versions[e.target.value].content); } },
        versions.map((v, i) => el("option", { value: i, selected: i === versions.length - 1 || null },
          "version " + v.version + (v.at !== undefined ? " (at " + v.at + ")" : ""))));
      return el("div.file", {}, el("div.file-head", {}, el("code", {}, path), " ", picker), body);
    }));
  }

  CAV.learnerLog = function (log) {
    if (log === null || log === undefined) return el("p.muted", {}, "The learner reported no log for this instance.");
    if (typeof log !== "object" || Array.isArray(log)) return CAV.jsonTree(log, "log", true);
    const parts = [];
    if (Array.isArray(log.messages)) parts.push(el("h4", {}, "Messages and tool calls (" + log.messages.length + ")"), messages(log.messages));
    if (Array.isArray(log.events)) parts.push(el("h4", {}, "The learner's notes, with candidate programs"), el("ul.events", {}, log.events.map(eventLine)));
    const kept = ["solved_by", "kept", "memory"].filter((k) => k in log);
    if (kept.length) {
      parts.push(el("h4", {}, "What it kept after the verdict"),
        kept.map((k) => (typeof log[k] === "string" ? el("div", {}, el("span.json-key", {}, k + ": "), el("pre", {}, log[k])) : CAV.jsonTree(log[k], k, true))));
    }
    if (log.files && typeof log.files === "object") parts.push(el("h4", {}, "Files, by version"), filesView(log.files));
    const rest = Object.fromEntries(Object.entries(log).filter(([k]) => !KNOWN.includes(k)));
    if (Object.keys(rest).length) parts.push(el("h4", {}, "Everything else it reported"), CAV.jsonTree(rest, "log"));
    return el("div.learner-log", {}, parts);
  };
})(window.CAV);
