/* The Figures page, drawn in SVG from the numbers the server computed (continual_arc.measure.figures):
 * the learning curve by exposure (each protocol's stream and its reset, the floors as horizontal
 * lines), the plane with every result given, and share saved against the number of users of each
 * sweep given. A curve's name opens its stream's replay.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const FLOOR = "#6b7480";

  function dot(a, x, y, colour, role, label) {
    return CAV.svg("circle", { cx: a.X(x), cy: a.Y(y), r: 3.2, fill: colour, class: role, "data-label": label },
      CAV.svg("title", {}, label + ": " + CAV.fmt(y)));
  }

  /* U per exposure index: a solid line per learner, dashed for its reset, a grey line per floor. */
  function exposureChart(doc) {
    const last = Math.max(1, ...doc.curves.flatMap((c) => c.learner.concat(c.reset).map((p) => p.exposure)));
    const ticks = [...new Set([0, Math.round(last / 2), last])].map((v) => [v, CAV.ordinal(v)]);
    const a = CAV.axes("U by exposure", "meeting with the task", "U, points of the budget", 0, last, 0, 100, ticks, [520, 300]);
    doc.floors.forEach((f, i) => {
      a.root.append(CAV.svg("line", { x1: a.X(0), x2: a.X(last), y1: a.Y(f.budget_used), y2: a.Y(f.budget_used), stroke: FLOOR,
        "stroke-dasharray": i % 2 ? "2 3" : "6 3", class: "floor-line", "data-label": f.label }, CAV.svg("title", {}, f.label + ": " + CAV.fmt(f.budget_used))));
      a.root.append(CAV.svg("text", { x: a.X(last) - 2, y: a.Y(f.budget_used) - 3, class: "tick", "text-anchor": "end" }, f.label));
    });
    doc.curves.forEach((c, i) => {
      const colour = CAV.taskColour(i);
      for (const [points, dashed, role] of [[c.learner, false, "curve-point"], [c.reset, true, "reset-point"]]) {
        if (!points.length) continue;
        a.root.append(CAV.path(points.map((p) => [p.exposure, p.budget_used]), a.X, a.Y, colour, dashed));
        points.forEach((p) => a.root.append(dot(a, p.exposure, p.budget_used, colour, role, c.label + (dashed ? " (reset)" : "") + ", " + CAV.ordinal(p.exposure) + " meeting, " + p.instances + " instance(s)")));
      }
    });
    return a.root;
  }

  function curveKey(doc, open) {
    return el("ul.plane-key", {},
      doc.curves.map((c, i) => el("li", {}, el("span.key", { style: "background:" + CAV.taskColour(i) }),
        el("a.num-link", { href: "#run=" + c.run, dataset: { run: c.run }, onclick: (e) => { e.preventDefault(); open(c.run); } }, c.label),
        c.reset.length ? " (dashed: its reset)" : "")),
      doc.floors.map((f) => el("li", {}, el("span.key", { style: "background:" + FLOOR }), "floor: " + f.label + ", U " + CAV.fmt(f.budget_used) + " over returns")));
  }

  /* Share saved against users: a line per sweep row and test (seen solid, held-out dashed). */
  function usersChart(series) {
    const users = [...new Set(series.flatMap((s) => s.points.map((p) => p.users)))].sort((x, y) => x - y);
    const at = (u) => users.indexOf(u);
    const values = series.flatMap((s) => s.points.flatMap((p) => [p.seen, p.held_out])).flatMap((e) => [e.low, e.high, e.value]).filter((v) => v !== null);
    const low = Math.min(0, ...values), high = Math.max(1, ...values);
    const a = CAV.axes("Share saved against users", "users", "share saved", -0.5, users.length - 0.5, low, high,
      users.map((u, i) => [i, u]), [520, 300]);
    series.forEach((s, i) => {
      const colour = CAV.taskColour(i);
      for (const [test, dashed] of [["seen", false], ["held_out", true]]) {
        const placed = s.points.filter((p) => p[test].value !== null);
        if (placed.length > 1) a.root.append(CAV.path(placed.map((p) => [at(p.users), p[test].value]), a.X, a.Y, colour, dashed));
        placed.forEach((p) => {
          const e = p[test];
          if (e.low !== null) a.root.append(CAV.svg("line", { x1: a.X(at(p.users)), x2: a.X(at(p.users)), y1: a.Y(e.low), y2: a.Y(e.high), class: "interval" }));
          a.root.append(dot(a, at(p.users), e.value, colour, "users-point", s.label + ", " + p.users + " user(s), " + test.replace("_", "-")));
        });
      }
    });
    return a.root;
  }

  /* Draw the page into `root` (once); `open(runId)` opens a run's replay. Returns true. */
  CAV.showFigures = function (root, open) {
    if (!CAV.hasRuns) {
      CAV.clear(root, el("h2", {}, "Figures"), el("p.no-runs", {}, "No run to show: the figures are drawn from the runs and " +
        "protocols given, and none was given (continual-arc view DIR draws those under DIR)."));
      return true;
    }
    CAV.load("figures").then((doc) => {
      const points = doc.plane.map((p, i) => ({ ...p.place, label: p.label + (p.floor ? " (floor)" : ""), colour: CAV.taskColour(i) }));
      CAV.clear(root, el("h2", {}, "Figures"),
        el("section.panel.figure", { dataset: { figure: "exposure" } }, el("h3", {}, "The learning curve by exposure"),
          el("p.muted", {}, "U (mean share of the budget, in points) of the stream's instances that met their task for the k-th time; " +
            "a floor (continual-arc view --floor DIR) is a line at its U over returns."),
          doc.curves.length || doc.floors.length ? el("div.plane-row", {}, exposureChart(doc), curveKey(doc, open)) : el("p.muted", {}, "No protocol's stream was given.")),
        el("section.panel.figure", { dataset: { figure: "plane" } }, el("h3", {}, "The plane"),
          el("p.muted", {}, "Each result given: share saved on the seen test across, on the held-out test up, with 95 % intervals."),
          points.length ? el("div.plane-row", {}, CAV.planeOf(points), el("ul.plane-key", {}, points.map((p) =>
            el("li", {}, el("span.key", { style: "background:" + p.colour }), p.label)))) : el("p.muted", {}, "No protocol with both tests was given.")),
        el("section.panel.figure", { dataset: { figure: "users" } }, el("h3", {}, "Share saved against users"),
          doc.users.length ? [el("p.muted", {}, "From the sweeps given (--sweep DIR), each setting's seeds pooled: seen test solid, held-out dashed, with 95 % intervals."),
            el("div.plane-row", {}, usersChart(doc.users), el("ul.plane-key", {}, doc.users.map((s, i) =>
              el("li", {}, el("span.key", { style: "background:" + CAV.taskColour(i) }), s.label))))]
            : el("p.muted", {}, "No sweep was given: continual-arc view --sweep DIR draws this figure.")),
        CAV.problems(doc.problems, "Left out"));
    }).catch((err) => CAV.clear(root, el("p.error", {}, "Cannot load the figures: " + err.message)));
    return true;
  };
})(window.CAV);
