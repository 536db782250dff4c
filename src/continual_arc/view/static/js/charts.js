/* Charts in SVG: the diagnostics (learner and the run beside it on the same axes) and the plane. */
"use strict";

(function (CAV) {
  const NS = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
    for (const c of children.flat()) if (c) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  /* A frame of axes: x from x0 to x1, y from y0 to y1, in a W x H box; returns {root, X, Y}. */
  function axes(title, xLabel, yLabel, x0, x1, y0, y1, ticksX, size) {
    const [W, H] = size || [360, 220];
    const L = 44, R = 10, T = 24, B = 36;
    const X = (v) => L + ((v - x0) / (x1 - x0 || 1)) * (W - L - R);
    const Y = (v) => H - B - ((v - y0) / (y1 - y0 || 1)) * (H - T - B);
    const root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "chart", role: "img", "aria-label": title });
    root.append(svg("text", { x: L, y: 15, class: "chart-title" }, title));
    for (let i = 0; i <= 4; i++) {
      const v = y0 + ((y1 - y0) * i) / 4;
      root.append(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "gridline" }));
      root.append(svg("text", { x: L - 4, y: Y(v) + 3, class: "tick", "text-anchor": "end" }, y1 - y0 >= 8 ? Math.round(v) : +v.toFixed(2)));
    }
    (ticksX || []).forEach(([v, label]) => root.append(svg("text", { x: X(v), y: H - B + 13, class: "tick", "text-anchor": "middle" }, label)));
    root.append(svg("text", { x: (L + W - R) / 2, y: H - 4, class: "axis-label", "text-anchor": "middle" }, xLabel));
    root.append(svg("text", { x: 11, y: (T + H - B) / 2, class: "axis-label", transform: "rotate(-90 11 " + (T + H - B) / 2 + ")", "text-anchor": "middle" }, yLabel));
    return { root, X, Y };
  }

  CAV.svg = svg;
  CAV.axes = axes;

  function path(points, X, Y, colour, dashed) {
    const d = points.map(([x, y], i) => (i ? "L" : "M") + X(x).toFixed(1) + " " + Y(y).toFixed(1)).join(" ");
    return svg("path", { d, fill: "none", stroke: colour, "stroke-width": 1.8, "stroke-dasharray": dashed ? "5 3" : null });
  }
  CAV.path = path;

  /* The learning curve: mean u over the last rounds, and U so far, of each side. */
  CAV.learningCurve = function (sides) {
    const curves = sides.filter((s) => s.diag && s.diag.learning_curve);
    const last = Math.max(1, ...curves.map((s) => s.diag.learning_curve.rounds.slice(-1)[0] || 1));
    const ticks = [0, Math.round(last / 2), last].map((v) => [v, v]);
    const a = axes("Learning curve", "round of the stream", "u, points of the budget", 0, last, 0, 100, ticks);
    for (const s of curves) {
      const c = s.diag.learning_curve;
      a.root.append(path(c.rounds.map((r, i) => [r, c.moving[i]]), a.X, a.Y, s.colour, false));
      a.root.append(path(c.rounds.map((r, i) => [r, c.budget_used[i]]), a.X, a.Y, s.colour, true));
    }
    return a.root;
  };

  /* Grouped bars: one group per key of `field` (cost by exposure, retention by gap), a bar per side. */
  CAV.groupedBars = function (title, xLabel, field, sides) {
    const keys = [];
    for (const s of sides) for (const k of Object.keys((s.diag && s.diag[field]) || {})) if (!keys.includes(k)) keys.push(k);
    if (field === "cost_by_exposure") keys.sort((p, q) => Number(p) - Number(q));
    const a = axes(title, xLabel, "mean u", 0, Math.max(1, keys.length), 0, 100,
      keys.map((k, i) => [i + 0.5, field === "cost_by_exposure" ? CAV.ordinal(Number(k)) : k]));
    const width = (a.X(1) - a.X(0)) * 0.8 / Math.max(1, sides.length);
    keys.forEach((k, i) => {
      sides.forEach((s, j) => {
        const group = s.diag && s.diag[field] && s.diag[field][k];
        if (!group || group.mean_charge === null) return;
        const x = a.X(i + 0.1) + j * width;
        const y = a.Y(group.mean_charge);
        a.root.append(svg("rect", { x, y, width: Math.max(1, width - 1), height: a.Y(0) - y, fill: s.colour },
          svg("title", {}, s.label + ": " + CAV.fmt(group.mean_charge) + " over " + group.instances + " instance(s)")));
      });
    });
    return a.root;
  };

  CAV.legend = function (sides) {
    return CAV.el("div.legend", {}, sides.map((s) => CAV.el("span", {}, CAV.el("span.swatch-line", { style: "background:" + s.colour }), s.label)),
      CAV.el("span.muted", {}, " solid: mean u over a window of rounds · dashed: U so far"));
  };

  /* The plane of the two frozen tests: memorization (seen) across, generalization (held-out) up. */
  /* One protocol's place on the plane. */
  CAV.plane = function (point) {
    return CAV.planeOf([{ ...point, colour: CAV.LEARNER }]);
  };

  /* Several places on one plane ({seen, held_out, label, colour}), each with its two intervals. */
  CAV.planeOf = function (points) {
    const values = points.flatMap((p) => [p.seen.share_saved, p.held_out.share_saved]).flatMap((e) => [e.low, e.high, e.value]).filter((v) => v !== null && v !== undefined);
    const low = Math.min(-0.1, ...values) - 0.05;
    const W = 300, M = 40;
    const S = (v) => M + ((v - low) / (1.05 - low)) * (W - 2 * M);
    const Yp = (v) => W - S(v);
    const root = svg("svg", { viewBox: "0 0 " + W + " " + W, class: "chart plane", role: "img", "aria-label": "the plane of the two tests" });
    root.append(svg("line", { x1: S(low), x2: S(1.05), y1: Yp(0), y2: Yp(0), class: "axis" }));
    root.append(svg("line", { x1: S(0), x2: S(0), y1: Yp(low), y2: Yp(1.05), class: "axis" }));
    [0, 0.5, 1].forEach((v) => {
      root.append(svg("text", { x: S(v), y: W - M + 14, class: "tick", "text-anchor": "middle" }, v));
      root.append(svg("text", { x: M - 6, y: Yp(v) + 3, class: "tick", "text-anchor": "end" }, v));
    });
    root.append(svg("text", { x: W / 2, y: W - 8, class: "axis-label", "text-anchor": "middle" }, "memorization: share saved on the seen test"));
    root.append(svg("text", { x: 12, y: W / 2, class: "axis-label", transform: "rotate(-90 12 " + W / 2 + ")", "text-anchor": "middle" }, "generalization: share saved, held-out"));
    const placed = points.filter((p) => p.seen.share_saved.value !== null && p.held_out.share_saved.value !== null);
    if (!placed.length) {
      root.append(svg("text", { x: W / 2, y: W / 2, class: "axis-label", "text-anchor": "middle" }, "undefined: see the notes"));
      return root;
    }
    for (const p of placed) {
      const seen = p.seen.share_saved, held = p.held_out.share_saved;
      if (seen.low !== null) root.append(svg("line", { x1: S(seen.low), x2: S(seen.high), y1: Yp(held.value), y2: Yp(held.value), class: "interval" }));
      if (held.low !== null) root.append(svg("line", { x1: S(seen.value), x2: S(seen.value), y1: Yp(held.low), y2: Yp(held.high), class: "interval" }));
      root.append(svg("circle", { cx: S(seen.value), cy: Yp(held.value), r: 5, fill: p.colour || CAV.LEARNER, "data-label": p.label }, svg("title", {}, p.label)));
    }
    return root;
  };
})(window.CAV);
