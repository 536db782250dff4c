/* The instance replay: the test input, each demonstration bought, each answer with its verdict, and
 * the cost meter out of the budget, stepped with the buttons or the arrow keys; then what the
 * trajectory holds (the learner's log, plug-ins, an error). A game level (the arc3 track) is drawn
 * by game.js in place of the grids: its frames, its actions attempt by attempt, its demonstrations.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);

  /* The cost meter: one cell per unit of the budget, demonstrations then wrong answers, and what
   * the failure charged on top when the instance ended unsolved. */
  CAV.meter = function (meter, maxCost, solved, game) {
    const charged = meter.charge !== null && meter.charge !== undefined;
    const cells = [];
    for (let i = 0; i < maxCost; i++) {
      let kind = "empty";
      if (i < meter.demos) kind = "demo";
      else if (i < meter.demos + meter.wrong) kind = "wrong";
      else if (charged && i < meter.charge) kind = "failed";
      cells.push(el("span.cell." + kind));
    }
    const words = charged
      ? "charged " + meter.charge + " of " + maxCost + (solved ? "" : " (unsolved: the whole budget)")
      : meter.spent + " of " + maxCost + " spent";
    return el("div.meter", { dataset: { spent: meter.spent, charge: charged ? meter.charge : "" } },
      el("div.cells", { "aria-hidden": "true" }, cells),
      el("div.meter-words", {},
        el("span.key.demo"), meter.demos + " demonstration" + (meter.demos === 1 ? "" : "s") + " · ",
        el("span.key.wrong"), meter.wrong + (game ? " failed attempt" : " wrong answer") + (meter.wrong === 1 ? "" : "s") + " · ",
        el("b.meter-total", {}, words)));
  };

  function caption(step, index) {
    switch (step.kind) {
      case "start": return "The learner meets the instance: the task's name and a test input, nothing more.";
      case "request_demos": return "Step " + index + ": it buys demonstration " + step.meter.demos + ".";
      case "refused": return "Step " + index + ": it asks for a demonstration past the cap: refused, at no cost.";
      case "submit":
        if (step.invalid) return "Step " + index + ": it submits something that is not a valid grid (" + step.invalid + "): wrong.";
        return "Step " + index + ": it submits an answer: " + (step.correct ? "right. The instance is solved." : "wrong.");
      case "give_up": return "Step " + index + ": it gives up.";
      case "invalid": return "Step " + index + ": it returns something that is not an action: " + (step.repr || "");
      default: return "Step " + index + ": no action (" + step.kind + ").";
    }
  }

  class Replay {
    constructor(root) {
      this.root = root;
      this.doc = null;
      this.at = 0;
      root.querySelector("[data-go=first]").addEventListener("click", () => this.go(0));
      root.querySelector("[data-go=prev]").addEventListener("click", () => this.go(this.at - 1));
      root.querySelector("[data-go=next]").addEventListener("click", () => this.go(this.at + 1));
      root.querySelector("[data-go=last]").addEventListener("click", () => this.go(Infinity));
    }

    /* Load and show instance `col` of run `runDoc` (a strip column), the run beside it noted. */
    async open(runDoc, col, besideLabel, onShown) {
      this.root.hidden = false;
      const name = "run/" + runDoc.id + "/i/" + col.step;
      this.root.dataset.loading = name;
      let doc;
      try {
        doc = await CAV.load(name, false);
      } catch (err) {
        CAV.clear(this.root.querySelector(".replay-head"), el("p.error", {}, "Cannot load this instance: " + err.message));
        return;
      }
      if (this.root.dataset.loading !== name) return;
      this.doc = doc;
      this.col = col;
      this.maxCost = (doc.record && doc.record.max_cost) || runDoc.strip.max_cost || 16;
      this.root.dataset.run = runDoc.id;
      this.root.dataset.step = col.step;
      this.game = doc.kind === "game";
      this.states = this.game ? CAV.gameStates(doc) : null;
      this.root.dataset.kind = doc.kind || "grid";
      this.root.querySelector(".replay-body").hidden = this.game;
      this.root.querySelector(".replay-game").hidden = !this.game;
      this.head(runDoc, col, besideLabel);
      CAV.clear(this.root.querySelector(".replay-holds"), this.holds(doc));
      this.go(0);
      if (onShown) onShown();
    }

    head(runDoc, col, besideLabel) {
      const d = this.doc;
      const meeting = col.exposure === 0 ? "first meeting" : col.exposure === null ? "" : CAV.ordinal(col.exposure) + " meeting, after a gap of " + col.gap;
      const verdict = (c, s) => c + " of " + this.maxCost + (s ? ", solved" : ", unsolved");
      CAV.clear(this.root.querySelector(".replay-head"),
        el("div.title", {}, (col.label !== undefined ? "Auxiliary episode " + col.step + " (step " + col.label + ")" : "Step " + col.step) + " · ", el("b", {}, col.task), d.alias ? " (seen as " + d.alias + ")" : "",
          " · " + col.phase + " · user " + col.user + " · round " + col.round + (meeting ? " · " + meeting : "")),
        el("div.charges", {},
          el("span.key.learner"), "the learner was charged " + verdict(col.charge, col.solved),
          col.beside ? [" · ", el("span.key.beside"), (besideLabel || "beside") + " on the same instance: " + verdict(col.beside.charge, col.beside.solved)] : "",
          " · instance seed " + col.seed),
        this.game ? CAV.gameFacts(d) : null,
        CAV.notes(d.notes),
        CAV.problems(d.problems, "This instance's files"));
    }

    holds(doc) {
      const parts = [el("h4", {}, "What the trajectory holds")];
      parts.push(CAV.learnerLog(doc.learner_log));
      if (doc.plugins) parts.push(el("h4", {}, "What plug-ins said"), CAV.jsonTree(doc.plugins, "plugins"));
      if (doc.teacher_play) {  // an experiment: the teacher played a copy of this instance first, uncharged
        const t = doc.teacher_play, end = t.result ? (t.result.solved ? "solved" : "unsolved (" + t.result.end + ")") : "not ended";
        parts.push(el("h4", {}, "The teacher's play of this instance, before the student's (uncharged)"),
          el("p.muted", {}, (t.events || []).map((e) => e.action ? e.action.action : "no action").join(" → ") + ": " + end +
            (t.fault ? "; its fault: " + t.fault : "")),
          CAV.jsonTree(t, "teacher_play"));
      }
      if (doc.error) parts.push(el("h4", {}, "The learner's error"), el("pre.error", {}, doc.error.traceback || JSON.stringify(doc.error, null, 1)));
      return parts;
    }

    go(k) {
      if (!this.doc) return;
      const steps = this.doc.steps;
      this.at = Math.max(0, Math.min(steps.length - 1, k));
      const shown = steps.slice(0, this.at + 1);
      const step = steps[this.at];
      const last = this.at === steps.length - 1;
      const solved = this.doc.record ? this.doc.record.solved : shown.some((s) => s.correct);
      this.root.querySelector(".replay-count").textContent = this.at + " / " + (steps.length - 1);
      this.root.dataset.at = this.at;
      this.root.dataset.steps = steps.length - 1;
      const replaced = step.learner_action ? " (a plug-in replaced the learner's " + step.learner_action.action + ")" : "";
      const words = this.game ? CAV.gameCaption(step, this.at, this.doc) : caption(step, this.at);
      CAV.clear(this.root.querySelector(".replay-caption"), words + replaced,
        last && step.end ? el("b", {}, " It ended: " + step.end + ".") : null);
      CAV.clear(this.root.querySelector(".replay-meter"), CAV.meter(step.meter, this.maxCost, solved, this.game));
      if (this.game) {
        this.root.querySelector(".replay-frames").hidden = true;
        CAV.drawGameStep(this.root, this.doc, this.states, this.at);
        return;
      }
      const demos = shown.filter((s) => s.kind === "request_demos");
      const answers = shown.filter((s) => s.kind === "submit");
      CAV.clear(this.root.querySelector(".replay-input"), CAV.gridFigure(this.doc.input, "test input", "input", 220));
      CAV.clear(this.root.querySelector(".replay-demos"), demos.length ? demos.map((s, i) =>
        el("div.pair" + (s === step ? ".newest" : ""), { dataset: { demo: i + 1 } },
          CAV.gridFigure(s.pair && s.pair[0], "demo " + (i + 1) + " in", "demo-in-" + (i + 1), 150),
          el("span.arrow", {}, "→"),
          CAV.gridFigure(s.pair && s.pair[1], "out", "demo-out-" + (i + 1), 150))) : el("p.muted", {}, "None yet"));
      CAV.clear(this.root.querySelector(".replay-answers"), answers.length ? answers.map((s, i) =>
        el("div.answer" + (s === step ? ".newest" : ""), { dataset: { answer: i + 1, correct: String(s.correct) } },
          CAV.gridFigure(s.grid, "answer " + (i + 1), "answer-" + (i + 1), 150),
          el("div.verdict." + (s.correct ? "right" : "wrong"), {}, s.correct ? "✓ right" : s.invalid ? "✗ invalid: " + s.invalid : "✗ wrong"))) : el("p.muted", {}, "None yet"));
      this.frames(shown);
    }

    frames(shown) {
      const box = this.root.querySelector(".replay-frames");
      const stepped = shown.flatMap((s) => s.frames || []);
      const all = this.doc.steps.some((s) => s.frames) ? stepped : this.doc.frames || [];
      box.hidden = all.length === 0;
      if (!all.length) return;
      const canvas = el("canvas.frame", { "aria-label": "game frame" });
      const label = el("span.frame-label");
      const slider = el("input", { type: "range", min: 0, max: all.length - 1, value: all.length - 1, "aria-label": "frame" });
      const drawAt = (i) => {
        try {
          CAV.drawFrame(canvas, all[i], 4);
          label.textContent = "frame " + (i + 1) + " of " + all.length;
        } catch (err) {
          label.textContent = "frame " + (i + 1) + ": " + err.message;
        }
      };
      slider.addEventListener("input", () => drawAt(Number(slider.value)));
      CAV.clear(box, el("h4", {}, "Frames"), canvas, el("div", {}, slider, " ", label));
      drawAt(all.length - 1);
    }
  }

  CAV.Replay = Replay;
})(window.CAV);
