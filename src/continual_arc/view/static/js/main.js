/* The page: the runs and protocols given, then the run chosen (its strip, replay, play panel,
 * diagnostics and memory), and beside them the Tasks and Figures pages, reached from the header.
 * The address's hash keeps the choice (#page=runs&run=r0&i=12&at=3&beside=r1&user=0).
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const $ = (s) => document.querySelector(s);
  const page = { index: null, run: null, partner: null, besideId: null, user: null };

  function hash() {
    return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  }

  function setHash(values) {
    const next = new URLSearchParams({ ...hash(), ...values });
    for (const [k, v] of [...next.entries()]) if (v === "" || v === "null" || v === "undefined") next.delete(k);
    history.replaceState(null, "", "#" + next.toString());
  }

  function runLabel(id) {
    const run = page.index.runs.find((r) => r.id === id);
    return run ? run.label : id;
  }

  function protocolBlock(block) {
    if (!block) return "protocol block unknown";
    return block.track + ", " + (block.canonical ? "canonical" : "ablation: " + (block.deviations || []).join("; "));
  }

  function runsTable(runs) {
    return el("table.runs", {},
      el("thead", {}, el("tr", {}, ["run", "learner", "config", "seed", "users", "instances", "U", "P", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, runs.map((r) => el("tr", { dataset: { run: r.id }, tabindex: 0, onclick: () => openRun(r.id), onkeydown: (e) => { if (e.key === "Enter") openRun(r.id); } },
        el("td", {}, r.label), el("td", {}, CAV.shortClass(r.learner)), el("td", {}, r.config || "–"), el("td", {}, r.seed ?? "–"),
        el("td", {}, r.users ?? "–"), el("td", {}, r.instances + (r.slots ? " of " + r.slots : "")),
        el("td", {}, CAV.fmt(r.budget_used)), el("td", {}, CAV.fmt(r.share_solved)),
        el("td.warn", {}, r.problems.length ? "⚠ " + r.problems.length : "")))));
  }

  /* The flags on the reset reference, beside the numbers they qualify (none in an older protocol.json). */
  function flagLines(pt) {
    const lines = [];
    for (const [name, t] of [["seen", pt.seen], ["held-out", pt.held_out]]) {
      if (t.reset_below_bare) lines.push("FLAG: the " + name + " reset plays below the bare model");
    }
    lines.push(...((pt.flags && pt.flags.messages) || []));
    return lines.length ? el("div.flags", { role: "note" }, lines.map((line) => el("p.flag", {}, line))) : null;
  }

  async function protocolCard(p) {
    const card = el("div.protocol", { dataset: { protocol: p.id } }, el("h3", {}, p.label), el("p.muted", {}, "loading…"));
    CAV.load("protocol/" + p.id).then((doc) => {
      const plays = Object.entries(doc.plays).map(([play, id]) => id
        ? el("button.play-link", { type: "button", dataset: { run: id }, onclick: () => openRun(id) }, play)
        : el("span.missing", {}, play + " (missing)"));
      const pt = doc.plane;
      const row = (name, t) => el("tr", {}, el("td", {}, name), el("td.num", {}, CAV.estimate(t.share_saved)), el("td.num", {}, CAV.estimate(t.saving, 1)),
        el("td.num", {}, CAV.fmt(t.learner.budget_used) + " / " + CAV.fmt(t.learner.share_solved)), el("td.num", {}, CAV.fmt(t.reset.budget_used) + " / " + CAV.fmt(t.reset.share_solved)));
      const learned = pt && pt.learned;
      CAV.clear(card, el("h3", {}, doc.label), el("p", {}, protocolBlock(doc.protocol_block) + " · " + CAV.shortClass(doc.learner && doc.learner.class) + " · " + (doc.config || "") + ", seed " + (doc.seed ?? "–") + ", " + (doc.users ?? "–") + " user(s)"),
        el("div.plays", {}, "Plays: ", plays),
        pt ? el("div.plane-row", {}, CAV.plane(pt), el("div", {},
          el("table.numbers", {}, el("thead", {}, el("tr", {}, ["test", "share saved [95 %]", "T, points", "learner U / P", "reset U / P"].map((h) => el("th", {}, h)))),
            el("tbody", {}, row("seen (memorization)", pt.seen), row("held-out (generalization)", pt.held_out))),
          flagLines(pt),
          learned ? el("p.learned", {}, "Share learned over the stream: ", el("b", {}, CAV.estimate(learned.share_learned)),
            " · learnable budget " + CAV.fmt(learned.learnable_budget) + " points · learner U " + CAV.fmt(learned.learner.budget_used) + ", reset U " + CAV.fmt(learned.reset.budget_used)) : el("p.muted", {}, "No share learned: the stream's reset is missing."),
          doc.plane_note ? el("p.muted", {}, doc.plane_note) : null)) : el("p.muted", {}, doc.plane_note || "No plane."),
        CAV.problems(doc.problems, "What is missing"));
    }).catch((err) => CAV.clear(card, el("p.error", {}, p.label + ": " + err.message)));
    return card;
  }

  const PAGES = { runs: "#page-runs", tasks: "#page-tasks", figures: "#page-figures" };
  const drawn = {};

  /* Show one page (runs, tasks or figures), drawing the Tasks and Figures pages when first shown. */
  function showPage(name, scrollTo) {
    if (!PAGES[name] || (name === "tasks" && page.index && !page.index.tasks)) name = "runs";
    for (const [key, selector] of Object.entries(PAGES)) $(selector).hidden = key !== name;
    document.querySelectorAll("#pages a").forEach((a) => a.classList.toggle("current", a.dataset.page === (scrollTo ? "leaderboard" : name)));
    setHash({ page: name });
    if (!drawn[name] && name === "tasks") drawn.tasks = CAV.showTasks($(PAGES.tasks));
    if (!drawn[name] && name === "figures") drawn.figures = CAV.showFigures($(PAGES.figures), openAndShow);
    if (scrollTo) $(scrollTo).scrollIntoView();
  }

  /* Open a run on the Runs page and bring its replay into view (the Figures page's links). */
  function openAndShow(id) {
    showPage("runs");
    return openRun(id).then(() => $("#run").scrollIntoView());
  }

  async function showIndex() {
    // The run asked for (or the first) is fetched while the index is: it is the strip's data.
    if (CAV.hasRuns) CAV.load("run/" + (hash().run || "r0")).catch(() => null);
    /** @type {IndexPage} (documents.js) */
    const index = await CAV.load("index");
    page.index = index;
    $("#pages [data-page=leaderboard]").hidden = !index.leaderboard;
    $("#pages [data-page=tasks]").hidden = !index.tasks;
    if (hash().page === "tasks" && !index.tasks) showPage("runs");
    if (index.leaderboard) await showLeaderboard();
    const box = $("#runs");
    if (!index.runs.length) return showNoRuns(box, index);
    CAV.clear(box,
      index.protocols.length ? el("div.protocols", {}, await Promise.all(index.protocols.map(protocolCard))) : null,
      el("h3", {}, "Runs"), runsTable(index.runs), CAV.problems(index.problems, "Not found"));
    const wanted = hash().run;
    const first = (index.protocols[0] && index.protocols[0].plays.stream) || (index.runs[0] && index.runs[0].id);
    const id = index.runs.some((r) => r.id === wanted) ? wanted : first;
    if (id) await openRun(id, true);
  }

  /* A site of the Tasks page alone (view --tasks or --pack, no run): say so, and open on the tasks. */
  function showNoRuns(box, index) {
    CAV.clear(box, el("p.no-runs", {}, "No run to show: no run, protocol or results directory was given " +
      "(continual-arc view DIR replays those under DIR)." + (index.tasks ? " The Tasks page lists every task of the tracks asked for." : "")),
      CAV.problems(index.problems, "Not found"));
    if (index.tasks && !page.asked) showPage("tasks");
  }

  /* The leaderboard given (view --leaderboard): each number opens its run and scrolls to the replay. */
  async function showLeaderboard() {
    const box = $("#leaderboard");
    box.hidden = false;
    const open = (id) => openRun(id).then(() => $("#run").scrollIntoView());
    try {
      CAV.showLeaderboard(box, await CAV.load("leaderboard"), open);
    } catch (err) {
      CAV.clear(box, el("p.error", {}, "Cannot load the leaderboard: " + err.message));
    }
  }

  function header(doc) {
    const phases = Object.entries(doc.phases).map(([phase, t]) => phase + ": U " + CAV.fmt(t.budget_used) + ", P " + CAV.fmt(t.share_solved) + " over " + t.instances);
    const options = [el("option", { value: "" }, "nothing")].concat(doc.partners.map((p) =>
      el("option", { value: p.id, selected: p.id === page.besideId || null }, (p.id === doc.reset ? "its reset: " : "") + runLabel(p.id) + (p.same ? "" : " (" + p.shared + " shared instances)"))));
    const beside = el("select#beside", { "aria-label": "beside the learner", onchange: (e) => openRun(doc.id, false, e.target.value || "none") }, options);
    const users = [...new Set(doc.strip.columns.user)].sort((a, b) => a - b);
    const userPick = el("select#user", { "aria-label": "user", onchange: (e) => { page.user = e.target.value === "" ? null : +e.target.value; setHash({ user: e.target.value }); drawStrip(); } },
      el("option", { value: "" }, "all users"), users.length > 1 ? users.map((u) => el("option", { value: u, selected: page.user === u || null }, "user " + u)) : null);
    CAV.clear($("#run-head"),
      el("h2", {}, doc.label),
      el("p.path", {}, doc.path),
      el("p", {}, CAV.shortClass(doc.learner), doc.learner_kwargs ? " " + JSON.stringify(doc.learner_kwargs) : "", " · ", doc.config || "config unknown", ", seed " + (doc.seed ?? "–") + ", " + (doc.users ?? "–") + " user(s), order " + (doc.order || "–") +
        (doc.test ? ", test " + doc.test : "") + (doc.width ? ", width " + doc.width : "") + (doc.reset_each ? ", reset before each instance" : "")),
      el("p", {}, "Protocol: " + protocolBlock(doc.protocol_block)),
      el("p.big", {}, "U ", el("b#run-u", {}, CAV.fmt(doc.budget_used)), " · P ", el("b#run-p", {}, CAV.fmt(doc.share_solved)), " · " + doc.instances + (doc.slots ? " of " + doc.slots : "") + " instances"),
      phases.length > 1 ? el("p", {}, phases.join(" · ")) : null,
      el("p.controls", {}, "Beside the learner: ", beside, users.length > 1 ? [" Show: ", userPick] : null),
      CAV.notes(doc.notes),
      CAV.problems(doc.problems, "What is missing or damaged in this run"));
  }

  function stripTitle(doc) {
    const phases = Object.keys(doc.phases);
    if (phases.length === 1 && phases[0] !== "stream") return "The " + phases[0] + " test, instance by instance (one round)";
    return "The stream, instance by instance";
  }

  function drawStrip() {
    $("#strip-title").textContent = stripTitle(page.run);
    page.strip.partnerLabel = page.partner ? (page.partner.id === page.run.reset ? "its reset" : runLabel(page.partner.id)) : null;
    page.strip.show(page.run, page.partner, page.user);
    $("#strip-legend .beside-name").textContent = page.strip.partnerLabel || "";
    $("#strip-legend .beside-legend").hidden = !page.partner;
  }

  /* The auxiliary episodes plug-ins asked for: in no measure, but each can be replayed. */
  function showAddons(doc) {
    const list = doc.addons || [];
    CAV.clear($("#addons"), list.length ? el("p.addons", {}, "Auxiliary episodes (in no measure): ", list.map((a) =>
      el("button.addon", { type: "button", dataset: { addon: a.name }, onclick: () => pick({ ...a, step: a.name, exposure: null, beside: null, label: a.step }, 0) },
        a.name + " · " + a.task + " · " + a.charge + "/" + page.run.strip.max_cost + (a.plugin ? " · " + CAV.shortClass(a.plugin) : "") + (a.reason ? " (" + a.reason + ")" : "")))) : null);
  }

  async function showDiagnostics(doc) {
    const box = $("#diagnostics");
    CAV.clear(box, el("p.muted", {}, "loading…"));
    const sides = [{ label: "learner", colour: CAV.LEARNER, id: doc.id }];
    if (page.partner) sides.push({ label: page.strip.partnerLabel, colour: CAV.BESIDE, id: page.partner.id });
    for (const s of sides) s.diag = (await CAV.load("run/" + s.id + "/diagnostics")).diagnostics;
    if (!sides[0].diag) {
      CAV.clear(box, el("p.muted", {}, "No diagnostics: the run has no stream instances (a test is one round)."));
      return;
    }
    const acq = sides.map((s) => s.label + " " + CAV.fmt(s.diag ? s.diag.acquisition_cost.mean_charge : null)).join(" · ");
    CAV.clear(box, CAV.legend(sides), el("p", {}, "Acquisition cost (mean u at a task's first meeting): " + acq),
      el("div.charts", {}, CAV.learningCurve(sides), CAV.groupedBars("Cost by exposure", "meeting with the task", "cost_by_exposure", sides),
        CAV.groupedBars("Retention by gap", "rounds since the task was last served", "retention_by_gap", sides)));
  }

  async function openRun(id, fromHash, besideChoice) {
    /** @type {RunDocument} (documents.js) */
    const doc = await CAV.load("run/" + id);
    const h = hash();
    const changed = !page.run || page.run.id !== id;
    page.run = doc;
    if (besideChoice !== undefined) page.besideId = besideChoice === "none" ? null : besideChoice;
    else if (fromHash && h.beside !== undefined) page.besideId = h.beside === "none" ? null : h.beside;
    else if (changed) page.besideId = doc.reset;
    if (!doc.partners.some((p) => p.id === page.besideId)) page.besideId = null;
    if (fromHash && h.user !== undefined) page.user = h.user === "" ? null : +h.user;
    else if (changed) page.user = null;
    page.partner = page.besideId ? await CAV.load("run/" + page.besideId) : null;
    $("#run").hidden = false;
    document.querySelectorAll("tr[data-run]").forEach((tr) => tr.classList.toggle("current", tr.dataset.run === id));
    header(doc);
    drawStrip();
    showAddons(doc);
    setTimeout(() => page.play.offer(doc, page.partner, page.strip.partnerLabel), 0);
    setHash({ run: id, beside: page.besideId || "none", user: page.user ?? "" });
    showDiagnostics(doc);
    const memory = $("#memory");
    memory.open = false;
    memory.dataset.loaded = "";
    const wantStep = fromHash ? Number(h.i) : NaN;
    const col = page.strip.columns.find((c) => c.step === wantStep) || page.strip.columns[0];
    if (col) pick(col, fromHash ? Number(h.at) || 0 : 0);
  }

  function pick(col, at) {
    page.strip.select(col.step);
    setHash({ i: col.step, at: at || 0 });
    page.replay.open(page.run, col, page.strip.partnerLabel, () => { if (at) page.replay.go(at); });
  }

  function keys(e) {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") page.replay.go(page.replay.at + 1);
    else if (e.key === "ArrowLeft") page.replay.go(page.replay.at - 1);
    else if (e.key === "Home") page.replay.go(0);
    else if (e.key === "End") page.replay.go(Infinity);
    else return;
    e.preventDefault();
    setHash({ at: page.replay.at });
  }

  async function showMemory() {
    const memory = $("#memory");
    if (!memory.open || memory.dataset.loaded === page.run.id) return;
    memory.dataset.loaded = page.run.id;
    /** @type {MemoryDocument} (documents.js) */
    const doc = await CAV.load("run/" + page.run.id + "/memory");
    CAV.clear(memory.querySelector(".memory-body"),
      doc.memory !== null ? CAV.jsonTree(doc.memory, "memory.json", true) : null,
      doc.plugins !== null ? CAV.jsonTree(doc.plugins, "plugins.json") : null, CAV.problems(doc.problems, "Missing"));
  }

  function start() {
    $("#mode-note").textContent = CAV.live ? "served locally" : "static export: play-it-yourself is unavailable";
    page.strip = new CAV.Strip($("#strip"), $("#strip-tip"), (col) => pick(col, 0));
    page.replay = new CAV.Replay($("#replay"));
    page.play = new CAV.Play($("#play"));
    document.querySelectorAll("#replay [data-go]").forEach((b) => b.addEventListener("click", () => setHash({ at: page.replay.at })));
    window.addEventListener("keydown", keys);
    $("#memory").addEventListener("toggle", showMemory);
    document.querySelectorAll("#pages a").forEach((a) => a.addEventListener("click", (e) => {
      e.preventDefault();
      const board = a.dataset.page === "leaderboard";
      showPage(board ? "runs" : a.dataset.page, board ? "#leaderboard" : null);
    }));
    page.asked = hash().page;
    showPage(page.asked || "runs");
    showIndex().catch((err) => CAV.clear($("#runs"), el("p.error", {}, "Cannot load the runs: " + err.message)));
  }

  CAV.page = page;
  CAV.openRun = openRun;
  CAV.showPage = showPage;
  document.addEventListener("DOMContentLoaded", start);
})(window.CAV);
