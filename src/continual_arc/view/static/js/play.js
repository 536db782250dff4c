/* Play it yourself: a fresh instance of a task, served by the server through the track's
 * environment, with the learner's three actions and costs. The page never sees the answer: only
 * the input, the demonstrations bought and each verdict. A grid editor in the ARC palette (paint
 * with the mouse, digits pick a colour, copy the input, resize) makes the answers. Each action is
 * posted by CAV.PlaySession (session.js), which the Tasks page's game levels share.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);

  class Editor {
    constructor(root) {
      this.root = root;
      this.colour = 0;
      this.grid = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
      this.canvas = el("canvas.arc.editor", { "aria-label": "your answer", dataset: { role: "editor" } });
      this.rows = el("input", { type: "number", min: 1, max: 30, value: 3, "aria-label": "rows" });
      this.cols = el("input", { type: "number", min: 1, max: 30, value: 3, "aria-label": "columns" });
      const swatches = CAV.ARC_PALETTE.map((c, i) => el("button.swatch", {
        type: "button", style: "background:" + c, title: "colour " + i + " (key " + i + ")", dataset: { colour: i },
        onclick: () => this.pick(i),
      }));
      this.swatches = swatches;
      let painting = false;
      this.canvas.addEventListener("mousedown", (e) => { painting = true; this.paint(e); });
      this.canvas.addEventListener("mousemove", (e) => { if (painting) this.paint(e); });
      window.addEventListener("mouseup", () => { painting = false; });
      CAV.clear(root,
        el("div.palette", {}, swatches),
        el("div.editor-tools", {},
          this.rows, "×", this.cols, " ",
          el("button", { type: "button", "data-tool": "resize", onclick: () => this.resize(+this.rows.value, +this.cols.value) }, "Resize"),
          el("button", { type: "button", "data-tool": "copy", onclick: () => this.set(this.input) }, "Copy input"),
          el("button", { type: "button", "data-tool": "clear", onclick: () => this.set(this.grid.map((r) => r.map(() => 0))) }, "Clear")),
        this.canvas);
      this.pick(0);
      this.draw();
    }

    pick(i) {
      this.colour = i;
      this.swatches.forEach((s, j) => s.classList.toggle("chosen", i === j));
    }

    set(grid) {
      if (!grid) return;
      this.grid = grid.map((r) => r.slice());
      this.rows.value = this.grid.length;
      this.cols.value = this.grid[0].length;
      this.draw();
    }

    resize(h, w) {
      h = Math.max(1, Math.min(30, h | 0));
      w = Math.max(1, Math.min(30, w | 0));
      this.set(Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => (this.grid[y] && this.grid[y][x] !== undefined ? this.grid[y][x] : 0))));
    }

    paint(event) {
      const box = this.canvas.getBoundingClientRect();
      const cell = box.width / this.grid[0].length;
      const x = Math.floor((event.clientX - box.left) / cell);
      const y = Math.floor((event.clientY - box.top) / cell);
      if (y >= 0 && y < this.grid.length && x >= 0 && x < this.grid[0].length) {
        this.grid[y][x] = this.colour;
        this.draw();
      }
    }

    draw() {
      const longest = Math.max(this.grid.length, this.grid[0].length);
      CAV.drawGrid(this.canvas, this.grid, Math.max(8, Math.min(28, Math.floor(320 / longest))));
    }
  }

  class Play extends CAV.PlaySession {
    constructor(root) {
      super();
      this.root = root;
      this.task = root.querySelector(".play-task");
      this.start = root.querySelector("[data-play=start]");
      this.board = root.querySelector(".play-board");
      this.start.addEventListener("click", () => this.begin());
      root.querySelector("[data-act=submit]").addEventListener("click", () => this.submit());
      root.querySelector("[data-act=demo]").addEventListener("click", () => this.act({ action: "request_demos" }));
      root.querySelector("[data-act=give-up]").addEventListener("click", () => this.act({ action: "give_up" }));
      this.note = root.querySelector(".play-note");
      this.controls = this.start.parentElement;
      if (!CAV.live) {
        root.querySelector(".play-note").textContent =
          "Playing needs the local server: this is a static export, so play-it-yourself is unavailable here. " +
          "Run continual-arc view on the run directories to play.";
        this.start.disabled = true;
        this.task.disabled = true;
      }
      this.gridNote = this.note.textContent;
      window.addEventListener("keydown", (e) => {
        if (this.editor && !this.board.hidden && /^[0-9]$/.test(e.key) && e.target.tagName !== "INPUT") this.editor.pick(+e.key);
      });
    }

    /* Offer the tasks of `runDoc` (and any task id of its track typed in), with the learner's charges. */
    offer(runDoc, partnerDoc, partnerLabel) {
      this.run = runDoc;
      // Playing serves grid tasks only: a game level's run says so in one line, with no controls.
      const game = runDoc.kind === "game";
      this.root.dataset.kind = runDoc.kind || "grid";
      this.controls.hidden = game;
      if (game) this.board.hidden = true;
      this.note.textContent = game
        ? "Play-it-yourself here serves grid tasks only: this run's instances are game levels, played by hand from the Tasks page."
        : this.gridNote;
      this.partner = partnerDoc;
      this.partnerLabel = partnerLabel;
      const list = this.root.querySelector("datalist");
      CAV.clear(list, runDoc.strip.tasks.map((t) => el("option", { value: t })));
      if (!this.task.value) this.task.value = runDoc.strip.tasks[0] || "";
    }

    charges(doc, task) {
      if (!doc) return [];
      const c = doc.strip.columns;
      const out = [];
      for (let j = 0; j < c.step.length; j++) if (doc.strip.tasks[c.task[j]] === task) out.push(c.charge[j]);
      return out;
    }

    phaseOf(task) {
      const c = this.run.strip.columns;
      const j = c.task.findIndex((t) => this.run.strip.tasks[t] === task);
      return j >= 0 ? c.phase[j] : this.run.phase || "stream";
    }

    async begin() {
      if (!this.run) return;
      const task = this.task.value.trim();
      const track = this.run.track;
      this.root.querySelector(".play-error").textContent = "";
      try {
        this.session = await CAV.post("play", { track, task, phase: this.phaseOf(task) });
      } catch (err) {
        this.root.querySelector(".play-error").textContent = err.message;
        return;
      }
      this.demos = [];
      this.answers = [];
      this.meter = { spent: 0, demos: 0, wrong: 0, charge: null };
      this.result = null;
      this.board.hidden = false;
      this.editor = new Editor(this.board.querySelector(".play-editor"));
      this.editor.input = this.session.input;
      this.root.dataset.token = this.session.token;
      this.root.dataset.seed = this.session.seed;
      this.render();
    }

    /* A reply to one action (CAV.PlaySession.act): the demonstration bought or the answer's verdict, and the meter. */
    take(reply) {
      const f = reply.feedback;
      if (f.feedback === "demos" && !f.refused) this.demos.push(f.pair);
      if (f.feedback === "submit") this.answers.push({ grid: reply.action.grid, correct: f.correct, invalid: f.invalid });
      this.meter = { spent: f.spent !== undefined ? f.spent : this.meter.spent, demos: this.demos.length, wrong: this.answers.filter((a) => !a.correct).length, charge: null };
      if (f.feedback === "demos" && f.refused) this.root.querySelector(".play-error").textContent = "No more demonstrations: the request was refused, at no cost.";
      if (reply.done) this.meter.charge = reply.result.charge;
    }

    render() {
      const s = this.session;
      const maxCost = s.rules.max_cost;
      const done = !!this.result;
      this.root.dataset.done = String(done);
      CAV.clear(this.board.querySelector(".play-head"), "A fresh instance of ", el("b", {}, s.task), " (" + s.phase + ", instance seed " + s.seed + ")");
      CAV.clear(this.board.querySelector(".play-input"), CAV.gridFigure(s.input, "test input", "play-input", 220));
      CAV.clear(this.board.querySelector(".play-demos"), this.demos.length ? this.demos.map((p, i) =>
        el("div.pair", {}, CAV.gridFigure(p[0], "demo " + (i + 1) + " in", "play-demo-in-" + (i + 1), 110), el("span.arrow", {}, "→"),
          CAV.gridFigure(p[1], "out", "play-demo-out-" + (i + 1), 110))) : el("p.muted", {}, "None yet"));
      CAV.clear(this.board.querySelector(".play-answers"), this.answers.length ? this.answers.map((a, i) =>
        el("div.answer", { dataset: { answer: i + 1, correct: String(a.correct) } }, CAV.gridFigure(a.grid, "answer " + (i + 1), "play-answer-" + (i + 1), 120),
          el("div.verdict." + (a.correct ? "right" : "wrong"), {}, a.correct ? "✓ right" : a.invalid ? "✗ invalid: " + a.invalid : "✗ wrong"))) : el("p.muted", {}, "None yet"));
      CAV.clear(this.board.querySelector(".play-meter"), CAV.meter(this.meter, maxCost, done && this.result.solved));
      this.board.querySelectorAll("[data-act]").forEach((b) => { b.disabled = done; });
      CAV.clear(this.board.querySelector(".play-outcome"), done ? this.outcome(maxCost) : null);
    }

    outcome(maxCost) {
      const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
      const mine = this.charges(this.run, this.session.task);
      const theirs = this.charges(this.partner, this.session.task);
      const list = (xs) => (xs.length ? xs.join(", ") + " (mean " + CAV.fmt(mean(xs)) + ")" : "never met it");
      const alone = !!this.run.standalone; // the Tasks page: no learner played it
      return el("div.outcome", { dataset: { charge: this.result.charge } },
        el("p", {}, el("b", {}, "You were charged " + this.result.charge + " of " + maxCost),
          this.result.solved ? " and solved it." : " (unsolved: " + this.result.end + ")."),
        alone ? null : el("p", {}, el("span.key.learner"), "The learner on this task, instance by instance: " + list(mine)),
        this.partner ? el("p", {}, el("span.key.beside"), (this.partnerLabel || "Beside it") + ": " + list(theirs)) : null);
    }

    submit() {
      this.act({ action: "submit", grid: this.editor.grid });
    }
  }

  CAV.Play = Play;
  CAV.Editor = Editor;
})(window.CAV);
