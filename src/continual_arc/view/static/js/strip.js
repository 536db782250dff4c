/* The stream strip: one column per instance, in order of step, on one canvas.
 *
 * Each column shows, from the top: a mark for a task's first meeting (a filled diamond) or a return
 * (a short tick), a band in the task's colour, and two bars side by side: the learner's charge
 * (left) and the charge of the run beside it on the same instance (right; its reset by default),
 * matched by real task id and instance seed. A full bar is the whole budget (an unsolved instance).
 * Pointing at a column lights every column of its task; clicking one opens its replay.
 */
"use strict";

(function (CAV) {
  const MARK = 10;
  const BAND = 12;
  const BARS = 96;
  const HEIGHT = MARK + BAND + 4 + BARS + 2;

  class Strip {
    constructor(canvas, tip, onPick) {
      this.canvas = canvas;
      this.tip = tip;
      this.onPick = onPick;
      this.lit = null;
      this.selected = null;
      this.columns = [];
      canvas.addEventListener("mousemove", (e) => this.point(this.columnAt(e), e));
      canvas.addEventListener("mouseleave", () => this.point(-1, null));
      canvas.addEventListener("click", (e) => {
        const j = this.columnAt(e);
        if (j >= 0) this.onPick(this.columns[j]);
      });
    }

    /* Lay out `doc` (a run document), keeping the instances of `user` (null: all), beside `partner`. */
    show(doc, partner, user) {
      const c = doc.strip.columns;
      this.doc = doc;
      this.maxCost = doc.strip.max_cost || 16;
      this.beside = new Map();
      if (partner) {
        const p = partner.strip.columns;
        for (let j = 0; j < p.step.length; j++) {
          this.beside.set(partner.strip.tasks[p.task[j]] + "|" + p.seed[j], { charge: p.charge[j], solved: p.solved[j], step: p.step[j] });
        }
      }
      this.colours = doc.strip.tasks.map((_, i) => [CAV.taskColour(i, 1), CAV.taskColour(i, 0.3)]);
      this.columns = [];
      for (let j = 0; j < c.step.length; j++) {
        if (user !== null && user !== undefined && c.user[j] !== user) continue;
        const task = doc.strip.tasks[c.task[j]];
        this.columns.push({
          index: j, step: c.step[j], user: c.user[j], round: c.round[j], phase: c.phase[j], taskIndex: c.task[j],
          task, seed: c.seed[j], exposure: c.exposure[j], gap: c.gap[j], charge: c.charge[j], solved: c.solved[j],
          end: c.end[j], beside: this.beside.get(task + "|" + c.seed[j]) || null,
        });
      }
      const room = Math.max(320, (this.canvas.parentElement.clientWidth || 900) - 4);
      this.width = Math.max(4, Math.min(28, Math.floor(room / Math.max(1, this.columns.length))));
      this.canvas.dataset.columns = this.columns.length;
      this.canvas.dataset.columnWidth = this.width;
      this.draw();
    }

    columnAt(event) {
      const box = this.canvas.getBoundingClientRect();
      const j = Math.floor((event.clientX - box.left) / this.width);
      return j >= 0 && j < this.columns.length ? j : -1;
    }

    point(j, event) {
      const task = j >= 0 ? this.columns[j].taskIndex : null;
      if (task !== this.lit) {
        this.lit = task;
        this.draw();
      }
      if (j < 0) {
        this.tip.hidden = true;
        delete this.canvas.dataset.litTask;
        delete this.canvas.dataset.litCount;
        return;
      }
      const col = this.columns[j];
      this.canvas.dataset.litTask = col.task;
      this.canvas.dataset.litCount = this.columns.filter((c) => c.taskIndex === col.taskIndex).length;
      CAV.clear(this.tip, describe(col, this.maxCost, this.partnerLabel));
      this.tip.hidden = false;
      const box = this.canvas.parentElement.getBoundingClientRect();
      this.tip.style.left = Math.min(event.clientX - box.left + 12, box.width - 260) + "px";
    }

    select(step) {
      this.selected = step;
      this.draw();
    }

    draw() {
      const ratio = window.devicePixelRatio || 1;
      const w = this.width;
      const canvas = this.canvas;
      canvas.width = Math.ceil(this.columns.length * w * ratio);
      canvas.height = Math.ceil(HEIGHT * ratio);
      canvas.style.width = this.columns.length * w + "px";
      canvas.style.height = HEIGHT + "px";
      const ctx = canvas.getContext("2d");
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, this.columns.length * w, HEIGHT);
      const base = MARK + BAND + 4 + BARS;
      this.columns.forEach((col, j) => {
        const x = j * w;
        const lit = this.lit !== null && col.taskIndex === this.lit;
        if (col.exposure === 0) {
          ctx.fillStyle = "#222";
          diamond(ctx, x + w / 2, MARK / 2, Math.min(4, w / 2));
        } else if (col.exposure !== null) {
          ctx.fillStyle = "#888";
          ctx.fillRect(x + w / 2 - 0.5, MARK - 5, 1, 5);
        }
        ctx.fillStyle = this.colours[col.taskIndex][this.lit === null || lit ? 0 : 1];
        ctx.fillRect(x, MARK, w - (w > 5 ? 1 : 0), BAND);
        const half = Math.max(1, Math.floor(w / 2) - (w > 5 ? 1 : 0));
        const own = this.beside.size ? half : Math.max(1, w - (w > 5 ? 1 : 0));
        bar(ctx, x, base, own, col.charge / this.maxCost, CAV.LEARNER);
        if (col.beside) bar(ctx, x + Math.floor(w / 2), base, half, col.beside.charge / this.maxCost, CAV.BESIDE);
        if (lit) {
          ctx.fillStyle = "rgba(255, 200, 0, 0.45)";
          ctx.fillRect(x, 0, w, HEIGHT);
        }
        if (col.step === this.selected) {
          ctx.strokeStyle = "#000";
          ctx.lineWidth = 1.5;
          ctx.strokeRect(x + 0.75, 0.75, w - 1.5, HEIGHT - 1.5);
        }
      });
      if (!CAV.state.timings.stripPainted) {
        requestAnimationFrame(() => {
          if (CAV.state.timings.stripPainted) return;
          CAV.state.timings.stripPainted = performance.now();
          performance.mark("strip-painted");
        });
      }
    }
  }

  function diamond(ctx, cx, cy, r) {
    ctx.beginPath();
    ctx.moveTo(cx, cy - r);
    ctx.lineTo(cx + r, cy);
    ctx.lineTo(cx, cy + r);
    ctx.lineTo(cx - r, cy);
    ctx.closePath();
    ctx.fill();
  }

  function bar(ctx, x, base, width, share, colour) {
    const h = Math.max(1, Math.round(Math.min(1, share) * BARS));
    ctx.fillStyle = colour;
    ctx.fillRect(x, base - h, width, h);
  }

  function meeting(col) {
    if (col.exposure === null || col.exposure === undefined) return "";
    if (col.exposure === 0) return "first meeting";
    return CAV.ordinal(col.exposure) + " meeting" + (col.gap !== null ? ", after a gap of " + col.gap : "");
  }

  function describe(col, maxCost, partnerLabel) {
    const verdict = (charge, solved) => charge + " of " + maxCost + (solved ? " (solved)" : " (unsolved)");
    return [
      CAV.el("div", {}, "step " + col.step + " · round " + col.round + " · user " + col.user + " · " + col.phase),
      CAV.el("div", {}, CAV.el("b", {}, col.task), " · " + meeting(col)),
      CAV.el("div", {}, CAV.el("span.key.learner"), "learner: " + verdict(col.charge, col.solved)),
      col.beside
        ? CAV.el("div", {}, CAV.el("span.key.beside"), (partnerLabel || "beside") + ": " + verdict(col.beside.charge, col.beside.solved))
        : null,
    ];
  }

  CAV.Strip = Strip;
})(window.CAV);
