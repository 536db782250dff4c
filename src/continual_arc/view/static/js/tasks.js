/* The Tasks page: every task of every installed track. A track's tasks of one role are shown a page
 * of cards at a time (PAGE_SIZE), and each card asks for its task's document only when its page is
 * shown, so hundreds of tasks never load at once. A grid task shows one generated instance (its
 * first demonstrations and its test pair); a game shows the opening frame of a fresh level and, with
 * the local server, a button to play it by hand (gameplay.js); so does a grid task, on a fresh instance
 * (play.js, as on a run's page, with no learner's charges beside). A track that cannot run here is listed
 * with the sentence that says how to install it.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const PAGE_SIZE = 24;
  const ROLE_NAMES = { stream: "stream tasks (the stream and the seen test)", "held-out": "held-out tasks" };

  function pairFigure(pair, label, role, box) {
    return el("div.pair", {}, CAV.gridFigure(pair[0], label + " in", role + "-in", box), el("span.arrow", {}, "→"),
      CAV.gridFigure(pair[1], "out", role + "-out", box));
  }

  /* The grid player of the Tasks page: CAV.Play on a copy of the run page's panel (ids renamed). */
  function gridPlayer() {
    const panel = document.getElementById("play");
    if (!panel || !CAV.live) return null;
    const root = panel.cloneNode(true);
    root.id = "tasks-play";
    root.querySelector("#play-title").id = "tasks-play-title";
    root.setAttribute("aria-labelledby", "tasks-play-title");
    root.querySelector("datalist").id = "tasks-play-tasks";
    root.querySelector(".play-task").setAttribute("list", "tasks-play-tasks");
    root.querySelector(".play-board").hidden = true;
    root.hidden = true;
    return new CAV.Play(root);
  }

  /* Play a fresh instance of `task` (of `track`, in the phase its role serves), with nothing beside it. */
  function playGrid(play, track, role, task) {
    const phase = role === "held-out" ? "held-out" : "stream";
    const alone = { track, kind: "grid", phase, standalone: true, strip: { tasks: [task], columns: { step: [], task: [], phase: [], charge: [] } } };
    play.offer(alone, null, null);
    play.task.value = task;
    play.root.hidden = false;
    play.begin().then(() => play.root.scrollIntoView && play.root.scrollIntoView());
  }

  function gridCard(card, doc, track, role, gridPlay) {
    const play = gridPlay
      ? el("button", { type: "button", dataset: { playTask: doc.task }, onclick: () => playGrid(gridPlay, track, role, doc.task) }, "Play a fresh instance")
      : el("p.muted", {}, "Playing needs the local server (continual-arc view).");
    CAV.clear(card, el("h4.task-id", {}, doc.task),
      el("div.task-pairs", {}, doc.demos.map((p, i) => pairFigure(p, "demo " + (i + 1), "task-demo-" + (i + 1), 84)),
        el("div.test-pair", {}, pairFigure(doc.test, "test", "task-test", 84))),
      el("p.muted", {}, doc.source + " · " + doc.demo_cap + " demonstrations on offer · instance seed " + doc.seed), play);
  }

  function gameCard(card, doc, player) {
    const canvas = el("canvas.frame", { dataset: { role: "task-frame" }, "aria-label": doc.task + ": the opening frame" });
    CAV.drawFrame(canvas, doc.frame, 2);
    const play = CAV.live
      ? el("button", { type: "button", dataset: { playGame: doc.task }, onclick: () => player.start(doc) }, "Play a fresh level")
      : el("p.muted", {}, "Playing needs the local server (continual-arc view).");
    CAV.clear(card, el("h4.task-id", {}, doc.task), canvas,
      el("p.muted", {}, "Actions: " + doc.actions.join(", ")), play);
  }

  function fillCard(card, track, role, id, player, gridPlay) {
    CAV.load("task/" + track + "/" + role + "/" + id).then((doc) => {
      if (doc.kind === "game") gameCard(card, doc, player);
      else gridCard(card, doc, track, role, gridPlay);
      card.dataset.loaded = "true";
    }).catch((err) => CAV.clear(card, el("h4.task-id", {}, id), el("p.error", {}, err.message)));
  }

  class TaskList {
    constructor(root, index, player, gridPlay) {
      this.root = root;
      this.index = index;
      this.player = player;
      this.gridPlay = gridPlay;
      const available = index.tracks.filter((t) => t.available);
      this.track = available[0] || null;
      this.role = "stream";
      this.page = 0;
      this.filter = "";
    }

    ids() {
      const ids = (this.track && this.track.roles[this.role]) || [];
      return this.filter ? ids.filter((id) => id.includes(this.filter)) : ids;
    }

    choose(track, role) {
      this.track = track;
      this.role = role;
      this.page = 0;
      this.draw();
    }

    draw() {
      if (!this.track) return CAV.clear(this.root, el("p.muted", {}, "No track can run here."));
      const ids = this.ids();
      const pages = Math.max(1, Math.ceil(ids.length / PAGE_SIZE));
      this.page = Math.min(this.page, pages - 1);
      const shown = ids.slice(this.page * PAGE_SIZE, (this.page + 1) * PAGE_SIZE);
      const go = (p) => { this.page = p; this.draw(); };
      const pager = el("p.pager", {},
        el("button", { type: "button", "data-pager": "prev", disabled: this.page === 0 || null, onclick: () => go(this.page - 1) }, "◀"),
        " page " + (this.page + 1) + " of " + pages + " (" + ids.length + " tasks) ",
        el("button", { type: "button", "data-pager": "next", disabled: this.page >= pages - 1 || null, onclick: () => go(this.page + 1) }, "▶"));
      const roles = Object.keys(this.track.roles).map((role) => el("button.role" + (role === this.role ? ".chosen" : ""), {
        type: "button", dataset: { role }, onclick: () => this.choose(this.track, role) }, ROLE_NAMES[role] || role));
      const filter = el("input", { type: "search", placeholder: "task id contains…", value: this.filter, "aria-label": "filter tasks",
        onchange: (e) => { this.filter = e.target.value.trim(); this.page = 0; this.draw(); } });
      const cards = shown.map((id) => el("div.task-card", { dataset: { task: id, track: this.track.name, role: this.role } },
        el("h4.task-id", {}, id), el("p.muted", {}, "loading…")));
      CAV.clear(this.root, el("h3", {}, this.track.name + ": " + this.track.summary),
        el("p.controls", {}, roles, " ", filter), pager, el("div.task-grid", {}, cards));
      cards.forEach((card) => fillCard(card, this.track.name, this.role, card.dataset.task, this.player, this.gridPlay));
    }
  }

  function trackRow(t, list) {
    const what = t.available
      ? el("button.track" + (list.track === t ? ".chosen" : ""), { type: "button", dataset: { track: t.name },
        onclick: () => { list.choose(t, "stream"); } }, t.name + " · " + t.tasks + " tasks")
      : el("span.unavailable", { dataset: { track: t.name } }, el("b", {}, t.name), ": not installed here. ", t.install);
    return el("li", {}, what, t.available && t.summary ? el("span.muted", {}, " " + t.summary) : null);
  }

  /* Draw the page into `root` (once); returns true so the caller knows it is drawn. */
  CAV.showTasks = function (root) {
    CAV.load("tasks").then((index) => {
      const player = new CAV.GamePlayer();
      const gridPlay = gridPlayer();
      const body = el("div.task-list");
      const list = new TaskList(body, index, player, gridPlay);
      const tracks = el("ul.tracks");
      const redraw = () => CAV.clear(tracks, index.tracks.map((t) => trackRow(t, list)));
      const choose = list.choose.bind(list);
      list.choose = (track, role) => { choose(track, role); redraw(); };
      redraw();
      CAV.clear(root, el("h2", {}, "Tasks"),
        el("p.muted", {}, "Every task of every track installed here, each shown by one instance at instance seed " + index.seed +
          ", which no schedule draws (a grid task's first " + index.demos + " demonstrations and its test pair)."),
        tracks, player.root, gridPlay ? gridPlay.root : null, body);
      list.draw();
    }).catch((err) => CAV.clear(root, el("p.error", {}, "Cannot load the tasks: " + err.message)));
    return true;
  };
})(window.CAV);
