/* A game level's replay (the arc3 track): the frame an action met and the frames it rendered, the
 * actions attempt by attempt with how each attempt ended, and each demonstration bought (the
 * solver playing another level of the game) frame by frame. Frames are numbers into the replay
 * document's frame table (doc.frames), decoded only when drawn.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const FAILED = { lost: "lost", reset: "reset", "action cap": "action cap" };

  /* The text of frame `f` of `doc` (a number into its table; older trajectories may hold the text). */
  function frameOf(doc, f) {
    return typeof f === "number" ? doc.frames[f] : f;
  }

  /* An action's name as the page writes it: a click with its cell. */
  CAV.actionName = function (step) {
    return step.kind === "ACTION6" && step.x !== undefined ? "ACTION6 (" + step.x + ", " + step.y + ")" : step.kind;
  };

  /* For each step, the frame the level stands at after it: what the next action meets. */
  CAV.gameStates = function (doc) {
    const opening = doc.steps[0].frames || [];
    const first = opening[opening.length - 1];
    let at = first;
    return doc.steps.map((s) => {
      if (s.frames && s.frames.length && s.kind !== "start") at = s.frames[s.frames.length - 1];
      const shown = at;
      // An attempt that ended unsolved starts again from the level's opening.
      if (FAILED[s.ended]) at = first;
      return { after: shown, next: at };
    });
  };

  CAV.gameCaption = function (step, index, doc) {
    const cap = doc.attempt_action_cap ? " of " + doc.attempt_action_cap : "";
    const head = "Step " + index + " (attempt " + step.attempt + "): ";
    switch (step.kind) {
      case "start": return "The learner meets the level: the game's name, its opening frame and the actions it offers.";
      case "request_demos": return head + "it buys demonstration " + step.meter.demos + ": the solver wins another level of the game.";
      case "refused": return head + "it asks for a demonstration past the cap: refused, at no cost.";
      case "give_up": return head + "it gives up.";
      case "invalid": return head + "it returns something that is not an action: " + (step.repr || "");
      case "no action": return head + "no action.";
      default: break;
    }
    const count = step.attempt_actions ? " (action " + step.attempt_actions + cap + " of the attempt)" : "";
    const what = head + CAV.actionName(step) + count + (step.offered === false ? ": not offered, nothing changed" : "");
    if (step.ended === "won") return what + ". The level is won: solved.";
    if (FAILED[step.ended]) return what + ". The attempt ends (" + step.ended + "): a failed attempt, costing 1.";
    return what + ".";
  };

  /* A frame on a canvas inside a box, with the clicked cell (if any) outlined above it. */
  function frameBox(text, role, cell, click, caption) {
    const canvas = el("canvas.frame", { dataset: { role }, "aria-label": caption });
    const box = el("div.frame-box", {}, canvas);
    try {
      CAV.drawFrame(canvas, text, cell);
    } catch (err) {
      return el("figure.grid.missing", { dataset: { role } }, el("div.nogrid", {}, "frame: " + err.message), el("figcaption", {}, caption));
    }
    if (click) {
      box.append(el("div.click-mark", { dataset: { x: click.x, y: click.y }, style: "left:" + (click.x * cell - 1) + "px;top:" + (click.y * cell - 1) + "px;width:" + cell + "px;height:" + cell + "px" }));
    }
    return el("figure.grid", {}, box, el("figcaption", {}, caption));
  }

  /* Frames stepped with a slider: `items` are {frame, label}; the last is shown first. */
  function framePlayer(doc, items, role, cell, title) {
    const holder = el("div.frame-holder");
    const label = el("span.frame-label");
    const slider = el("input", { type: "range", min: 0, max: items.length - 1, value: items.length - 1, "aria-label": title, dataset: { role: role + "-slider" } });
    const show = (i) => {
      CAV.clear(holder, frameBox(frameOf(doc, items[i].frame), role, cell, null, title));
      label.textContent = "frame " + (i + 1) + " of " + items.length + (items[i].label ? " · " + items[i].label : "");
      holder.dataset.index = i;
    };
    slider.addEventListener("input", () => show(Number(slider.value)));
    show(items.length - 1);
    return el("div.frame-player", {}, holder, items.length > 1 ? el("div", {}, slider, " ", label) : el("div", {}, label));
  }

  /* One demonstration: the solver's actions and every frame they rendered, frame by frame. */
  function demoBlock(doc, demo, i, newest) {
    const cls = "div.game-demo" + (newest ? ".newest" : "");
    if (!demo || !demo.frames) return el(cls, { dataset: { demo: i } }, el("p.muted", {}, "demonstration " + i + ": no frames recorded"));
    const items = [];
    demo.frames.forEach((group, j) => group.forEach((frame) => items.push({
      frame, label: j === 0 ? "the opening" : "after action " + j + " of " + demo.actions.length + ": " + CAV.actionName({ kind: demo.actions[j - 1].action, ...demo.actions[j - 1] }),
    })));
    return el(cls, { dataset: { demo: i, actions: demo.actions.length } },
      el("div.demo-title", {}, "Demonstration " + i + ": won in " + demo.actions.length + " actions"),
      framePlayer(doc, items, "demo-frame-" + i, 3, "demonstration " + i),
      el("div.demo-actions", {}, demo.actions.map((a) => el("span.act", {}, CAV.actionName({ kind: a.action, ...a })))));
  }

  /* The actions up to step `at`, one row per attempt, each with how it ended. */
  function actionLog(steps, at) {
    const rows = new Map();
    steps.slice(1, at + 1).forEach((s, k) => {
      if (!rows.has(s.attempt)) rows.set(s.attempt, { chips: [], ended: null });
      const row = rows.get(s.attempt);
      const name = s.kind === "request_demos" ? "demo " + s.meter.demos : s.kind === "refused" ? "demo refused" : CAV.actionName(s);
      row.chips.push(el("span.act" + (s.kind.startsWith("ACTION") || s.kind === "RESET" ? "" : ".other") + (k + 1 === at ? ".newest" : "") + (s.offered === false ? ".unoffered" : ""),
        { dataset: { step: k + 1 } }, name));
      if (s.ended) row.ended = s.ended;
    });
    if (!rows.size) return el("p.muted", {}, "None yet");
    return el("div.attempts", {}, [...rows].map(([n, row]) => el("div.attempt", { dataset: { attempt: n, ended: row.ended || "" } },
      el("span.attempt-name", {}, "attempt " + n + " "),
      row.chips,
      row.ended ? el("span.verdict." + (row.ended === "won" ? "right" : "wrong"), {}, row.ended === "won" ? " ✓ won" : " ✗ " + row.ended) : null)));
  }

  /* Draw step `at` of game replay `doc` into `root` (the replay's section). */
  CAV.drawGameStep = function (root, doc, states, at) {
    const step = doc.steps[at];
    const before = at > 0 ? states[at - 1].next : null;
    const click = step.kind === "ACTION6" && step.x !== undefined ? { x: step.x, y: step.y } : null;
    let now;
    if (step.frames && step.frames.length) {
      const items = step.frames.map((frame, i) => ({ frame, label: step.frames.length > 1 ? (step.kind === "start" ? "the opening" : "what " + CAV.actionName(step) + " rendered") + " (" + (i + 1) + " of " + step.frames.length + ")" : "" }));
      now = framePlayer(doc, items, "frame-after", 5, step.kind === "start" ? "the opening" : "after " + CAV.actionName(step));
    } else {
      now = framePlayer(doc, [{ frame: states[at].after, label: "unchanged" }], "frame-after", 5, "the level now");
    }
    CAV.clear(root.querySelector(".game-now"), now,
      step.ended && FAILED[step.ended] && at < doc.steps.length - 1 ? el("p.muted", {}, "The next attempt starts from the level's opening.") : null);
    CAV.clear(root.querySelector(".game-before"), before !== null && step.frames && step.kind !== "start"
      ? frameBox(frameOf(doc, before), "frame-before", 3, click, "the frame " + CAV.actionName(step) + " met" + (click ? ", the click outlined" : ""))
      : el("p.muted", {}, at === 0 ? "The opening is the first frame." : "No action on the level at this step."));
    const demos = doc.steps.slice(0, at + 1).filter((s) => s.kind === "request_demos");
    CAV.clear(root.querySelector(".game-demos"), demos.length ? demos.map((s, i) => demoBlock(doc, s.demo, i + 1, s === step)) : el("p.muted", {}, "None yet"));
    CAV.clear(root.querySelector(".game-actions"), actionLog(doc.steps, at));
  };

  /* ARC-AGI-3's level score of the instance: its actions against the baseline (a human's count where
     one is recorded, else the solver's plan), and beside it the level's share of ARC-AGI-3's scorecard. */
  function levelScore(level) {
    const whose = level.baseline_source === "human" ? "a human's" : "the solver's";
    const card = level.scorecard_level === undefined || level.scorecard_level === null ? "" :
      "; scorecard share " + CAV.fmt(level.scorecard_level, 2) + ", the same squared ratio capped at 1.15";
    return el("span.level-score", { dataset: { score: level.level_score, scorecard: level.scorecard_level, baseline: level.baseline_source } },
      " · level score " + CAV.fmt(level.level_score, 2) + " (ARC-AGI-3's min(1, (baseline / actions)²): " +
      level.level_actions + " actions against " + whose + " " + level.baseline_actions + "; 0 when unsolved" + card + ")");
  }

  /* What the page says of a game level under its title: the game and its caps. */
  CAV.gameFacts = function (doc) {
    return el("div.game-facts", {}, "A level of " + (doc.alias ? "a game seen as " + doc.alias : "the game") +
      (doc.difficulty !== undefined && doc.difficulty !== null ? " at difficulty " + doc.difficulty : "") +
      " · an attempt may take " + doc.attempt_action_cap + " actions, the instance " + doc.action_cap +
      " · each failed attempt and each demonstration costs 1",
      doc.steps.length && doc.steps[doc.steps.length - 1].level ? levelScore(doc.steps[doc.steps.length - 1].level) : null);
  };
})(window.CAV);
