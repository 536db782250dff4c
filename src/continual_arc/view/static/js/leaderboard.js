/* The Leaderboard page: the tables `continual-arc leaderboard` wrote, every result on one plane,
 * and every number a link that opens the replay of the run it was read from (the stream for U, P
 * and the share learned, the reset's stream for the reset's U and P, each test's run for its share
 * saved). A result the checker refused is listed, never ranked.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);

  /* A number that opens its run: a link to #run=<id>, or plain text when the run is not viewed. */
  function link(text, runId, what, open) {
    if (!runId) return el("span.num", {}, text);
    return el("a.num-link", {
      href: "#run=" + runId, dataset: { run: runId, what: what }, title: "replay the " + what,
      onclick: (e) => { e.preventDefault(); open(runId); },
    }, text);
  }

  function plusMinus(stream) {
    return CAV.fmt(stream.budget_used) + (stream.standard_error === null ? "" : " ± " + CAV.fmt(stream.standard_error));
  }

  const HEAD = ["#", "Result", "Learner", "Student", "Teacher", "Effort", "Setting", "U ± SE", "P", "Reset U", "Reset P",
    "Seen: share saved", "Held-out: share saved", "Share learned", "Flags", "Status"];

  function rowOf(r, open) {
    const runs = r.runs || {};
    const cell = (text, play, what) => el("td.num", {}, link(text, runs[play], what, open));
    return el("tr", { dataset: { rank: r.rank, protocol: r.protocol || "" } },
      el("td", {}, r.rank), el("td", {}, r.name), el("td", {}, CAV.shortClass(r.learner)),
      el("td", {}, r.student || "–"), el("td", {}, r.teacher || "–"), el("td", {}, r.effort || "–"),
      el("td", {}, (r.config || "–") + ", seed " + (r.seed ?? "–")),
      cell(plusMinus(r.stream), "stream", "learner's stream"), cell(CAV.fmt(r.stream.share_solved), "stream", "learner's stream"),
      cell(CAV.fmt(r.reset.budget_used), "stream-reset", "reset's stream"), cell(CAV.fmt(r.reset.share_solved), "stream-reset", "reset's stream"),
      cell(CAV.estimate(r.seen.share_saved, 2), "seen", "seen test"), cell(CAV.estimate(r.held_out.share_saved, 2), "held-out", "held-out test"),
      cell(CAV.estimate(r.learned, 2), "stream", "learner's stream"),
      el("td.flags", {}, r.flags.length ? r.flags.map((f) => el("p.flag", {}, f)) : "–"),
      el("td", {}, el("span.status." + r.status, {}, r.status)));
  }

  function tableOf(t, open) {
    const users = t.users + " user" + (t.users === 1 ? "" : "s");
    const points = t.rows.map((r, i) => ({ seen: r.seen, held_out: r.held_out, label: "#" + r.rank + " " + r.name, colour: CAV.taskColour(i) }));
    return el("section.board-table", { dataset: { track: t.track, users: t.users } },
      el("h3", {}, t.track + ", " + users),
      el("div.table-scroll", {}, el("table.numbers.board", {},
        el("thead", {}, el("tr", {}, HEAD.map((h) => el("th", {}, h)))),
        el("tbody", {}, t.rows.map((r) => rowOf(r, open))))),
      el("div.plane-row", {}, CAV.planeOf(points), el("ul.plane-key", {}, points.map((p) =>
        el("li", {}, el("span.key", { style: "background:" + p.colour }), p.label)))));
  }

  /* The whole page into `box`; `open(runId)` opens a run (and its first instance's replay). */
  CAV.showLeaderboard = function (box, doc, open) {
    const refused = doc.refused.length ? el("section.refused", {},
      el("h3", {}, "Refused by the checker (not ranked)"),
      el("ul", {}, doc.refused.map((r) => el("li", {}, r.path + (r.name ? " (" + r.name + ")" : "") + ": " + r.reason)))) : null;
    CAV.clear(box,
      el("h2", {}, "Leaderboard"),
      el("p.muted", {}, "Ranked by " + (doc.ranked_by || "U") + ". U in points of the budget ± its standard error over tasks; " +
        "shares with their 95 % intervals. Each number opens the replay of its run."),
      doc.tables.length ? doc.tables.map((t) => tableOf(t, open)) : el("p.muted", {}, "No result passed the checks: nothing is ranked."),
      refused, CAV.problems(doc.problems, "Not viewed"));
  };
})(window.CAV);
