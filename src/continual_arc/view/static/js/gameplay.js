/* Play a game level (arc3) by hand, from the Tasks page: a fresh level served by the local server
 * through the track's environment, under the learner's rules. The page sends the level's actions
 * (a button each; a click on the frame is ACTION6 at that cell), buys demonstrations or gives up,
 * and draws the frames each reply carries. It never sees more than a learner would. Each action is
 * posted by CAV.PlaySession (session.js), as play-it-yourself's are.
 */
"use strict";

(function (CAV) {
  const el = (...a) => CAV.el(...a);
  const CLICK = "ACTION6";
  const CELL = 5;

  class GamePlayer extends CAV.PlaySession {
    constructor() {
      super();
      this.root = el("section.panel.game-play", { hidden: true, "aria-label": "play a game level" });
    }

    async start(doc) {
      this.root.hidden = false;
      CAV.clear(this.root, el("p.muted", {}, "opening a fresh level of " + doc.task + "…"));
      try {
        this.session = await CAV.post("play", { track: doc.track, task: doc.task, phase: doc.phase });
      } catch (err) {
        CAV.clear(this.root, el("p.error", {}, err.message));
        return;
      }
      this.frame = this.session.frame;
      this.state = { spent: 0, attempts: 0, actions: 0, ended: null, demos: [], moves: 0 };
      this.result = null;
      this.root.dataset.token = this.session.token;
      this.root.dataset.task = doc.task;
      this.render();
      this.root.scrollIntoView();
    }

    /* A reply to one action (CAV.PlaySession.act): the level's last frame and meter, or the demonstration bought. */
    take(reply) {
      const f = reply.feedback;
      if (f.feedback === "game") {
        if (f.frames.length) this.frame = f.frames[f.frames.length - 1];
        Object.assign(this.state, { spent: f.spent, attempts: f.attempts_used, actions: f.attempt_actions, ended: f.ended });
        this.state.moves += 1;
      } else if (f.feedback === "demos") {
        this.state.spent = f.spent;
        if (f.demo) this.state.demos.push(f.demo);
      }
    }

    clickAt(event, canvas) {
      const box = canvas.getBoundingClientRect();
      const x = Math.floor(((event.clientX - box.left) / box.width) * 64);
      const y = Math.floor(((event.clientY - box.top) / box.height) * 64);
      this.act({ action: CLICK, x, y });
    }

    demoFigure(demo, i) {
      const groups = demo.frames.filter((g) => g.length);
      const last = groups.length ? groups[groups.length - 1] : null;
      const canvas = el("canvas.frame", { dataset: { role: "play-demo-" + (i + 1) } });
      if (last) CAV.drawFrame(canvas, last[last.length - 1], 2);
      return el("figure.demo", {}, canvas, el("figcaption", {}, "demonstration " + (i + 1) + ": " + demo.actions.length + " actions, its last frame"));
    }

    render() {
      const s = this.session;
      const done = !!this.result;
      const canvas = el("canvas.frame.playable", { dataset: { role: "play-frame" }, "aria-label": "the level" });
      CAV.drawFrame(canvas, this.frame, CELL);
      const clicks = s.actions.includes(CLICK);
      if (clicks && !done) canvas.addEventListener("click", (e) => this.clickAt(e, canvas));
      const buttons = s.actions.filter((a) => a !== CLICK).map((a) =>
        el("button", { type: "button", dataset: { gameAction: a }, disabled: done || null, onclick: () => this.act({ action: a }) }, a));
      const st = this.state;
      this.root.dataset.done = String(done);
      this.root.dataset.moves = String(st.moves);
      CAV.clear(this.root,
        el("h3", {}, "Playing a fresh level of " + s.task),
        el("p.muted", {}, s.phase + " · instance seed " + s.seed + " · a failed attempt costs 1, a demonstration " + s.rules.demo_cost +
          "; the instance ends unsolved at " + s.rules.max_cost + (clicks ? " · click the frame for " + CLICK : "")),
        el("div.game-board", {}, canvas, el("div.game-side", {},
          el("p.controls", {}, buttons),
          el("p", {},
            el("button", { type: "button", dataset: { gameAction: "request_demos" }, disabled: done || null, onclick: () => this.act({ action: "request_demos" }) }, "Buy a demonstration"),
            " ",
            el("button", { type: "button", dataset: { gameAction: "give_up" }, disabled: done || null, onclick: () => this.act({ action: "give_up" }) }, "Give up")),
          el("p.game-meter", {}, "spent " + st.spent + " of " + s.rules.max_cost + " · failed attempts " + st.attempts + " of " + s.attempt_cap +
            " · this attempt " + st.actions + " of " + s.attempt_action_cap + " actions" + (st.ended ? " · the last attempt ended: " + st.ended : "")),
          el("p.play-error.error", {}),
          done ? el("p.outcome", { dataset: { charge: this.result.charge } }, el("b", {}, "You were charged " + this.result.charge + " of " + s.rules.max_cost),
            this.result.solved ? " and solved the level." : " (unsolved: " + this.result.end + ").") : null)),
        st.demos.length ? el("div.game-demos", {}, st.demos.map((d, i) => this.demoFigure(d, i))) : null);
    }
  }

  CAV.GamePlayer = GamePlayer;
})(window.CAV);
