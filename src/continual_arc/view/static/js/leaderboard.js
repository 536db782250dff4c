/* The Leaderboard page: the tables `continual-arc leaderboard` wrote. The verified and reproduced
 * results rank in the main tables; the reported ones (self-run, or stored without trajectories and
 * signed by nobody trusted) in tables of their own beneath, marked, never interleaved. A row pooling
 * a learner's seeds opens onto each seed's row. Each table has its plane (full width, every point
 * labelled by its rank, points that would overlap set apart) and its figure of share saved against
 * cost per instance. Every number is a link that opens the replay of the run it was read from.
 * Results whose track cannot run here are listed with the command that would check them; a result
 * the checker refused is listed, never ranked.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const svg = (...a) => CAV.svg(...a);

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

  /* An estimate; a pooled row's interval is the range of its seeds' values, said so. */
  function estimate(e, pooled) {
    if (pooled && e && e.value !== null && e.low !== null) return CAV.fmt(e.value, 2) + " (seeds " + CAV.fmt(e.low, 2) + " to " + CAV.fmt(e.high, 2) + ")";
    return CAV.estimate(e, 2);
  }

  const whole = (v) => Math.round(v).toLocaleString("en-US");

  /* What the learner spent, as the CLI prints it: model cost and tokens, or searches; seconds in the learner. */
  function spent(s) {
    if (!s) return "–";
    const parts = [];
    if (s.usd !== null) parts.push("$" + s.usd.toFixed(2));
    if (s.tokens !== null) parts.push(whole(s.tokens) + " tokens");
    if (s.usd === null && s.tokens === null && s.calls !== null) parts.push(whole(s.calls) + " calls");
    if (s.searches !== null) parts.push(whole(s.searches) + " searches");
    parts.push(s.learner_seconds.toFixed(1) + " s in the learner");
    return parts.join(", ");
  }

  /* The cost of one instance in the unit of its table (as `continual-arc figures` draws it): dollars
   * of model calls; else searches, a count the records give alike on any machine; else seconds. */
  function perInstance(s, unit) {
    if (!s || !s.instances) return null;
    if (unit === "usd") return s.usd === null ? 0 : s.usd / s.instances;
    if (unit === "searches") return s.searches === null ? null : s.searches / s.instances;
    return s.learner_seconds / s.instances;
  }
  const costText = (v, unit) => v === null ? "–" : unit === "usd" ? "$" + v.toFixed(4) : unit === "searches" ? v.toFixed(2) + " searches" : v.toFixed(3) + " s";
  /* The row's per-instance cell: the table's unit, and the seconds beside a count. */
  function perInstanceText(s, unit) {
    const main = costText(perInstance(s, unit), unit);
    return unit === "searches" && s && s.instances ? main + ", " + costText(s.learner_seconds / s.instances, "seconds") : main;
  }
  const COST_LABELS = {
    usd: "model cost per instance, US dollars (the learner's stream and tests)",
    searches: "searches per instance (model-free; the learner's stream and tests)",
    seconds: "seconds inside the learner per instance (the learner's stream and tests)",
  };

  function training(s) {
    if (!s || !s.training) return "–";
    return Object.entries(s.training).map(([k, v]) => k + " " + v).join(", ");
  }

  function standing(r) {
    const parts = [el("span.status." + r.status, { title: r.standing_reason }, r.status + (r.signer ? " (" + r.signer + ")" : ""))];
    if (r.records_only) parts.push(el("span.records-only", { title: "stored without trajectories: checked on everything but their replay (continual-arc runs rebuild replays it)" }, "records only"));
    if (r.public && r.public.length) parts.push(el("p.beside", {}, "public stream beside it: " + r.public.map((p) => p.name + ", U " + CAV.fmt(p.budget_used)).join("; ")));
    if (r.beside && r.beside.length) parts.push(el("p.beside", {}, "beside the verified " + r.beside.join(", ")));
    return parts;
  }

  const HEAD = ["#", "Result", "Standing", "Learner", "Student", "Teacher", "Effort", "Setting", "U ± SE", "P", "Reset U", "Reset P",
    "Seen: share saved", "Held-out: share saved", "Share learned", "Spent", "Per instance", "Training", "Flags"];

  function setting(r) {
    if (r.seeds.length > 1) return (r.config || "–") + ", " + r.seeds.length + " seeds (" + r.seeds.join(", ") + ")";
    return (r.config || "–") + ", seed " + (r.seed ?? "–");
  }

  function rowOf(r, open, unit, seedOf) {
    const runs = r.runs || {};
    const pooled = r.seeds.length > 1;
    const cell = (text, play, what) => el("td.num", {}, link(text, runs[play], what, open));
    const plain = (text) => el("td.num", {}, el("span.num", {}, text));
    const number = pooled ? plain : (text, play, what) => cell(text, play, what);  // a pooled row's numbers open each seed's row
    const rank = seedOf !== undefined ? "" : r.rank;
    const name = seedOf !== undefined ? el("span.seed-name", {}, "seed " + r.seed) : pooled
      ? el("button.seeds-toggle", { type: "button", "aria-expanded": "false", title: "show each seed's row" }, "▸ " + r.name + " (" + r.seeds.length + " seeds)")
      : r.name;
    const tr = el("tr" + (seedOf !== undefined ? ".seed-row" : pooled ? ".pooled" : ""), {
      dataset: { rank: r.rank, protocol: r.protocol || "", seeds: r.seeds.length, of: seedOf ?? "" }, hidden: seedOf !== undefined,
    },
    el("td", {}, rank), el("td", {}, name), el("td.standing", {}, standing(r)), el("td", {}, CAV.shortClass(r.learner)),
    el("td", {}, r.student || "–"), el("td", {}, r.teacher || "–"), el("td", {}, r.effort || "–"),
    el("td", {}, setting(r)),
    number(plusMinus(r.stream), "stream", "learner's stream"), number(CAV.fmt(r.stream.share_solved), "stream", "learner's stream"),
    number(CAV.fmt(r.reset.budget_used), "stream-reset", "reset's stream"), number(CAV.fmt(r.reset.share_solved), "stream-reset", "reset's stream"),
    number(estimate(r.seen.share_saved, pooled), "seen", "seen test"), number(estimate(r.held_out.share_saved, pooled), "held-out", "held-out test"),
    number(estimate(r.learned, pooled), "stream", "learner's stream"),
    el("td.spend", {}, spent(r.spend)), el("td.num.per-instance", {}, perInstanceText(r.spend, unit)), el("td", {}, training(r.spend)),
    el("td.flags", {}, r.flags.length ? r.flags.map((f) => el("p.flag", {}, f)) : "–"));
    return tr;
  }

  function bodyOf(rows, open, unit, key) {
    const lines = [];
    rows.forEach((r) => {
      const line = rowOf(r, open, unit);
      lines.push(line);
      const seeds = (r.by_seed || []).map((s) => rowOf(s, open, unit, key + "-" + r.rank));
      lines.push(...seeds);
      const toggle = line.querySelector("button.seeds-toggle");
      if (toggle) toggle.addEventListener("click", () => {
        const shown = toggle.getAttribute("aria-expanded") !== "true";
        toggle.setAttribute("aria-expanded", String(shown));
        toggle.textContent = (shown ? "▾ " : "▸ ") + r.name + " (" + r.seeds.length + " seeds)";
        seeds.forEach((s) => { s.hidden = !shown; });
      });
    });
    return lines;
  }

  /* Pixel positions set apart: points closer than `gap` are spread on a small circle about their centre. */
  function apart(points, gap) {
    const groups = [];
    for (const p of points) {
      const near = groups.find((g) => Math.hypot(g[0].x - p.x, g[0].y - p.y) < gap);
      if (near) near.push(p); else groups.push([p]);
    }
    for (const g of groups) {
      if (g.length < 2) continue;
      const cx = g.reduce((a, p) => a + p.x, 0) / g.length, cy = g.reduce((a, p) => a + p.y, 0) / g.length;
      const radius = gap * 0.8;
      g.forEach((p, i) => {
        const angle = (2 * Math.PI * i) / g.length - Math.PI / 2;
        p.x = cx + radius * Math.cos(angle); p.y = cy + radius * Math.sin(angle);
      });
    }
    return points;
  }

  /* A scatter over the full width: x and y in data units, each point its rank's label, a key beside. */
  function scatter(title, cls, points, xLabel, yLabel, xRange, yRange, xTick) {
    const W = 900, H = 340, L = 64, R = 20, T = 30, B = 48;
    const [x0, x1] = xRange, [y0, y1] = yRange;
    const X = (v) => L + ((v - x0) / (x1 - x0 || 1)) * (W - L - R);
    const Y = (v) => H - B - ((v - y0) / (y1 - y0 || 1)) * (H - T - B);
    const root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "chart board-chart " + cls, role: "img", "aria-label": title, preserveAspectRatio: "xMidYMid meet" });
    root.append(svg("text", { x: L, y: 18, class: "chart-title" }, title));
    for (let i = 0; i <= 4; i++) {
      const vy = y0 + ((y1 - y0) * i) / 4, vx = x0 + ((x1 - x0) * i) / 4;
      root.append(svg("line", { x1: L, x2: W - R, y1: Y(vy), y2: Y(vy), class: "gridline" }));
      root.append(svg("text", { x: L - 6, y: Y(vy) + 4, class: "tick", "text-anchor": "end" }, vy.toFixed(2)));
      root.append(svg("text", { x: X(vx), y: H - B + 16, class: "tick", "text-anchor": "middle" }, xTick(vx)));
    }
    if (y0 < 0 && y1 > 0) root.append(svg("line", { x1: L, x2: W - R, y1: Y(0), y2: Y(0), class: "axis" }));
    if (x0 < 0 && x1 > 0) root.append(svg("line", { x1: X(0), x2: X(0), y1: Y(y0), y2: Y(y1), class: "axis" }));
    root.append(svg("text", { x: (L + W - R) / 2, y: H - 8, class: "axis-label", "text-anchor": "middle" }, xLabel));
    root.append(svg("text", { x: 14, y: (T + H - B) / 2, class: "axis-label", transform: "rotate(-90 14 " + (T + H - B) / 2 + ")", "text-anchor": "middle" }, yLabel));
    const placed = apart(points.map((p) => ({ ...p, x: X(p.vx), y: Y(p.vy), x0: X(p.vx), y0: Y(p.vy) })), 16);
    for (const p of placed) {
      if (p.xLow !== undefined && p.xLow !== null) root.append(svg("line", { x1: X(p.xLow), x2: X(p.xHigh), y1: p.y0, y2: p.y0, class: "interval" }));
      if (p.yLow !== undefined && p.yLow !== null) root.append(svg("line", { x1: p.x0, x2: p.x0, y1: Y(p.yLow), y2: Y(p.yHigh), class: "interval" }));
      if (p.x !== p.x0 || p.y !== p.y0) root.append(svg("line", { x1: p.x0, x2: p.x, y1: p.y0, y2: p.y, class: "leader" }));
      root.append(svg("circle", { cx: p.x, cy: p.y, r: 6, fill: p.colour, "data-label": p.label, "data-rank": p.rank }, svg("title", {}, p.label)));
      root.append(svg("text", { x: p.x + 9, y: p.y - 7, class: "point-label", "data-rank": p.rank }, "#" + p.rank));
    }
    return root;
  }

  /* An axis's range: every value and `floor` in it, at least `least` wide, padded on both sides. */
  function range(values, pad, floor, least) {
    const v = values.filter((x) => x !== null && x !== undefined && !Number.isNaN(x));
    const lo = Math.min(floor, ...v);
    const hi = Math.max(lo + least, ...v);
    const span = hi - lo;
    return [lo - span * pad, hi + span * pad];
  }

  function planeOf(rows) {
    const points = rows.filter((r) => r.seen.share_saved.value !== null && r.held_out.share_saved.value !== null).map((r, i) => ({
      vx: r.seen.share_saved.value, vy: r.held_out.share_saved.value, xLow: r.seen.share_saved.low, xHigh: r.seen.share_saved.high,
      yLow: r.held_out.share_saved.low, yHigh: r.held_out.share_saved.high, rank: r.rank, label: "#" + r.rank + " " + r.name, colour: CAV.taskColour(i),
    }));
    const xs = points.flatMap((p) => [p.vx, p.xLow, p.xHigh]), ys = points.flatMap((p) => [p.vy, p.yLow, p.yHigh]);
    return scatter("The plane: share saved on each test", "plane-wide", points, "memorization: share saved on the seen test",
      "generalization: share saved, held-out", range(xs, 0.08, 0, 0.2), range(ys, 0.08, 0, 0.2), (v) => v.toFixed(2));
  }

  /* Share saved on each test against what one instance cost the learner (two markers per result). */
  function costOf(rows, unit) {
    const points = [];
    rows.forEach((r, i) => {
      const cost = perInstance(r.spend, unit);
      if (cost === null) return;
      [["held_out", "held-out"], ["seen", "seen"]].forEach(([key, name], k) => {
        const e = r[key].share_saved;
        if (e.value === null) return;
        points.push({ vx: cost, vy: e.value, yLow: e.low, yHigh: e.high, rank: r.rank + (k ? "s" : "h"),
          label: "#" + r.rank + " " + r.name + ", " + name + " test: " + CAV.fmt(e.value, 2) + " at " + costText(cost, unit) + " per instance",
          colour: k ? CAV.taskColour(i, 0.45) : CAV.taskColour(i) });
      });
    });
    const ys = points.flatMap((p) => [p.vy, p.yLow, p.yHigh]);
    const xs = points.map((p) => p.vx);
    const tick = (v) => unit === "usd" ? "$" + v.toFixed(3) : unit === "searches" ? v.toFixed(2) : v.toFixed(2) + " s";
    return scatter("Share saved against cost per instance (h: held-out, s: seen)", "cost", points, COST_LABELS[unit], "share saved",
      range(xs, 0.08, 0, Math.max(...xs, 0) * 0.2 || 0.01), range(ys, 0.08, 0, 0.2), tick);
  }

  function unitOf(rows) {
    if (rows.some((r) => r.spend && r.spend.usd !== null)) return "usd";
    return rows.length && rows.every((r) => r.spend && r.spend.searches !== null) ? "searches" : "seconds";
  }

  function tableOf(t, open) {
    const users = t.users + " user" + (t.users === 1 ? "" : "s");
    const unit = unitOf(t.rows);
    const key = (t.experiment ? "experiment-" : t.reported ? "reported-" : "") + t.track + "-" + t.users;
    return el("section.board-table" + (t.reported ? ".reported" : ""), { dataset: { track: t.track, users: t.users, reported: t.reported ? "yes" : "no" } },
      el("h3", {}, t.track + ", " + users + (t.experiment ? " (experiment)" : t.reported ? " (reported)" : "")),
      el("div.table-scroll", {}, el("table.numbers.board", {},
        el("thead", {}, el("tr", {}, HEAD.map((h) => el("th", {}, h)))),
        el("tbody", {}, bodyOf(t.rows, open, unit, key)))),
      el("div.board-figures", {}, planeOf(t.rows), el("ul.plane-key", {}, t.rows.map((r, i) =>
        el("li", {}, el("span.key", { style: "background:" + CAV.taskColour(i) }), "#" + r.rank + " " + r.name))), costOf(t.rows, unit)));
  }

  /* The whole page into `box`; `open(runId)` opens a run (and its first instance's replay). */
  CAV.showLeaderboard = function (box, doc, open) {
    const notHere = doc.not_here && doc.not_here.length ? el("section.not-here", {},
      el("h3", {}, "Not checked here (their tracks cannot run on this install)"),
      el("ul", {}, doc.not_here.map((r) => el("li", {}, r.path + (r.name ? " (" + r.name + ")" : "") + ": " + r.reason + "; to check it: ", el("code", {}, r.command))))) : null;
    const refused = doc.refused.length ? el("section.refused", {},
      el("h3", {}, "Refused by the checker (not ranked)"),
      el("ul", {}, doc.refused.map((r) => el("li", {}, r.path + (r.name ? " (" + r.name + ")" : "") + ": " + r.reason)))) : null;
    const reported = doc.reported && doc.reported.length ? el("section.reported-tables", {},
      el("h2", {}, "Reported: self-run results"),
      el("p.muted", {}, "Not rerun by a verifier this viewer trusts: ranked among themselves, never with the verified and reproduced results above. " +
        "A stored run without trajectories is here too, marked records only, unless a trusted signature covers it."),
      doc.reported.map((t) => tableOf(t, open))) : null;
    const experiments = doc.experiments && doc.experiments.length ? el("section.experiment-tables", {},
      el("h2", {}, "Experiments: a teacher played the instances first, uncharged"),
      el("p.muted", {}, "Not learners: every instance was played twice, by the teacher (its demonstrations and verdicts charged to nobody) and then by the student. " +
        "An upper bound on what a teacher can pass on, never verified, ranked among themselves only. The teacher's calls are in the training column."),
      doc.experiments.map((t) => tableOf(t, open))) : null;
    CAV.clear(box,
      el("h2", {}, "Leaderboard"),
      el("p.muted", {}, "Ranked by " + (doc.ranked_by || "U") + ". U in points of the budget ± its standard error over tasks; " +
        "shares with their 95 % intervals (a row pooling seeds: their mean, with the range of the seeds' values; open it for each seed). " +
        "Spent: the learner's model cost and tokens, or its searches and seconds, on its stream and both tests; training compute apart. " +
        "Each number opens the replay of its run."),
      doc.tables.length ? doc.tables.map((t) => tableOf(t, open)) : el("p.muted.no-verified", {}, "No verified or reproduced result: the main tables are empty."),
      reported, experiments, notHere, refused, CAV.problems(doc.problems, "Not viewed"));
  };
})(window.CAV);
