/* One hand-played instance on the local server, shared by play-it-yourself (play.js) and the Tasks
 * page's game levels (gameplay.js). Each action is posted under the session's token; the player's
 * take(reply) folds the reply's feedback into what it shows, the result is kept once the instance
 * ends, and the player is drawn again. A request the server refuses costs nothing: its one
 * sentence goes to the player's .play-error line.
 */
"use strict";

(function (CAV) {
  class PlaySession {
    constructor() {
      this.session = null;
      this.result = null;
    }

    async act(body) {
      if (!this.session || this.result) return;
      let reply;
      try {
        reply = await CAV.post("play/" + this.session.token, body);
      } catch (err) {
        this.root.querySelector(".play-error").textContent = err.message;
        return;
      }
      this.take(reply);
      if (reply.done) this.result = reply.result;
      this.render();
    }
  }

  CAV.PlaySession = PlaySession;
})(window.CAV);
