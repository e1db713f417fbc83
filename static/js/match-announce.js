// The live region: what a screen reader hears without looking. One polite region (#announce), not chatty:
// the moves just played in words ("Red: c2→c3, d1→d2, end of turn"), then whose turn it is, the refusals
// ("That is not your tower.") and the result. Moves that arrive together (a Towers turn of several actions) are
// said in one sentence after a short pause; stepping through the game says the move shown.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const GATHER_MS = 700; // the actions of one quick computer turn arrive within this; they are said together

  window.Quadrille.part("announce", (page) => {
    const region = document.getElementById("announce");
    // a seat as its renderer calls it, mark included (Gamma's "Blue (A)"), else the page's name for it
    const who = (seat) => (page.spec.seatLabel ? page.spec.seatLabel(seat, page.state()) : page.label(seat));
    let pending = [];      // [{mover, text}] not said yet
    let timer = null;
    let shown = false;
    let lastTurn = null;
    let shownPly = null;   // the move shown while stepping through the game

    function say(text) {
      if (!text) return;
      // The same words twice in a row are not announced again unless the region changes: clear, then set.
      region.textContent = "";
      window.setTimeout(() => { region.textContent = text; }, 30);
    }

    page.announce = say; // for the other parts (the clock's low-time warnings): one region for everything

    function turnText(state) {
      if (state.outcome) {
        const title = window.Quadrille.resultTitle ? window.Quadrille.resultTitle(page) : I18n.t("Game over");
        const rating = window.QuadrilleRatings.spoken(state, page); // a rated game's change (match-ratings.js)
        return rating ? `${title}. ${rating}` : (window.Quadrille.resultTitle ? title : I18n.t("Game over."));
      }
      if (state.turn == null) return "";
      // a renderer may add what the turn asks (Gamma: only a golden move is left, and skipping may end the game)
      const hint = page.spec.turnHint ? page.spec.turnHint(state) : "";
      if (page.role() === "player" && page.myTurn()) {
        return hint ? I18n.t("Your turn. {hint}", { hint }) : I18n.t("Your turn.");
      }
      return I18n.t("{player} to move.", { player: who(state.turn) });
    }

    function flush() {
      timer = null;
      const state = page.state();
      const parts = [];
      let k = 0;
      while (k < pending.length) {
        const seat = pending[k].mover;
        const texts = [];
        while (k < pending.length && pending[k].mover === seat) texts.push(pending[k++].text);
        const moves = texts.join(", ");
        parts.push(seat ? I18n.t("{player}: {moves}.", { player: who(seat), moves }) : I18n.t("Move: {moves}.", { moves }));
      }
      pending = [];
      const turn = turnText(state);
      lastTurn = state.turn;
      say([...parts, turn].filter(Boolean).join(" "));
    }

    function render(state, previous) {
      if (!shown) { shown = true; lastTurn = state.turn; return; } // the first drawing tells nothing new
      if (page.replaying()) {
        const ply = page.replayPly();
        if (ply !== shownPly) {
          shownPly = ply;
          say(ply ? I18n.t("Move {ply} of {count}: {move}.", { ply, count: state.moves.length, move: page.moveName(state, ply - 1) })
            : I18n.t("The start position."));
        }
        return;
      }
      if (shownPly !== null) { shownPly = null; say(I18n.t("Back to the game. {turn}", { turn: turnText(state) })); return; }
      const before = previous ? previous.moves.length : 0;
      const grew = state.moves.length > before
        && previous.moves.every((m, i) => m === state.moves[i]);
      if (grew) {
        for (let i = before; i < state.moves.length; i++) {
          pending.push({ mover: state.movers && state.movers[i], text: page.moveName(state, i) });
        }
      } else if (state.moves.length < before) {
        pending = [];
        say(I18n.t("Taken back to move {ply}. {turn}", { ply: state.moves.length, turn: turnText(state) }));
        lastTurn = state.turn;
        return;
      }
      const ended = state.outcome && (!previous || !previous.outcome);
      if (grew || ended || (state.turn !== lastTurn && state.started)) {
        clearTimeout(timer);
        timer = window.setTimeout(flush, ended ? 50 : GATHER_MS);
      }
    }

    // Refusals and notes from the page (an illegal move, "Wait for your turn."): said at once.
    page.onMessage((text) => { if (text) say(text); });

    return { render };
  });
})();
