// The end of a game: a result screen over the board, in the viewer's terms ("You won", "You lost", "Draw";
// "Red wins" for spectators and on one screen), the reason in plain words, the final score, and what fits
// the mode next: play again (same options, sides swapped), a harder or easier computer, a rematch offer, a new
// game, export, or closing it to look at the board.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  const Q = window.Quadrille;

  // Why a game ended, when a match decision (not the rules) ended it; each renderer words its own endings.
  function platformReason(outcome, page) {
    const who = (seats) => page.names(seats || []);
    // "You" to the player of that seat (never on one screen, where the viewer holds every seat): a sentence of
    // its own, as many languages say "you resigned" with another form of the verb.
    const mine = (seat) => {
      const seats = page.role() === "player" ? page.mySeats() : [];
      return seats.includes(seat) && seats.length < (page.state().seats || []).length;
    };
    switch (outcome.reason) {
      case "resigned": return mine(outcome.resigned) ? I18n.t("You resigned.")
        : I18n.t("{player} resigned.", { player: who([outcome.resigned]) });
      case "aborted": if (outcome.by === "site") return I18n.t("The site's moderators closed this match: it has no result.");
        if (page.state().moves.length || page.state().started) {
          return mine(outcome.aborted) ? I18n.t("You aborted the game: it has no result.")
            : I18n.t("{player} aborted the game: it has no result.", { player: who([outcome.aborted]) });
        }
        return mine(outcome.aborted) ? I18n.t("You cancelled the match before it began.")
          : I18n.t("{player} cancelled the match before it began.", { player: who([outcome.aborted]) });
      case "agreed": return I18n.t("Both players agreed to a draw.");
      case "abandoned": return I18n.n("{players} left the game and did not come back in time.",
        "{players} left the game and did not come back in time.", (outcome.abandoned || []).length,
        { players: who(outcome.abandoned) });
      case "move-limit": return I18n.t("The game reached its move limit.");
      case "time": {
        const won = (outcome.winners || []).length;
        if (mine(outcome.flagged)) {
          return won ? I18n.t("You ran out of time.")
            : I18n.t("You ran out of time, but the other side could not win any more: a draw.");
        }
        const player = who([outcome.flagged]);
        return won ? I18n.t("{player} ran out of time.", { player })
          : I18n.t("{player} ran out of time, but the other side could not win any more: a draw.", { player });
      }
      default: return null;
    }
  }

  function reasonText(page) {
    const state = page.state();
    const outcome = state.outcome;
    const spec = Q.renderers[state.game];
    const names = state.seat_names || [];
    return platformReason(outcome, page)
      || (spec && spec.reasonText && spec.reasonText(outcome.reason, outcome, names, state))
      || "";
  }

  function title(page) {
    const state = page.state();
    const outcome = state.outcome;
    if (!outcome) return "";
    if (outcome.reason === "aborted" && outcome.by === "site") return I18n.t("Match closed");
    if (outcome.reason === "aborted") return state.started ? I18n.t("Game aborted") : I18n.t("Match cancelled");
    const winners = outcome.winners || [];
    if (!winners.length) return I18n.t("Draw");
    if (page.role() === "player") {
      return winners.some((s) => page.mySeats().includes(s))
        ? (winners.length > 1 ? I18n.t("You share the win") : I18n.t("You won")) : I18n.t("You lost");
    }
    return I18n.n("{players} wins", "{players} win", winners.length, { players: page.names(winners) });
  }
  Q.resultTitle = title;

  function scoreText(page) {
    const state = page.state();
    const outcome = state.outcome;
    const spec = Q.renderers[state.game];
    if (spec && spec.scoreText) return spec.scoreText(outcome, state.seat_names || [], state) || "";
    if (!outcome.scores || !outcome.scores.length) return "";
    return outcome.scores.map((score, i) => `${page.label(i + 1)} ${score}`).join(" · ");
  }

  // A new match against the computer with the same options and sides, one level up or down.
  async function againstComputer(page, level) {
    const state = page.state();
    const computer = state.seats.filter((s) => s.kind === "ai").map((s) => s.seat);
    const answer = await fetch("/api/matches", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: state.game, options: state.options, mode: "ai",
        ai: { seats: computer, level }, player: window.QuadrilleTokens.getName() || undefined }),
    });
    const created = await answer.json().catch(() => ({ reason: I18n.t("The server answered oddly.") }));
    if (!answer.ok) return page.message(created.reason, "error");
    window.QuadrilleTokens.remember(created);
    page.go(created.match);
  }

  // Play again: the same options with sides swapped (a rematch); online, an offer to the other players.
  Q.playAgain = (page) => page.offerRematch();

  // A new game: in an embed, another local game of the same options in the frame; elsewhere, the lobby's
  // form for this game.
  Q.newGame = (page) => {
    if (page.embed && window.QuadrilleEmbed) return window.QuadrilleEmbed.newGame(page);
    window.location.href = `/#game-${page.state().game}`;
  };

  Q.part("result", (page) => {
    const overlay = $("result");
    let closedAt = null; // the version whose result the player closed to look at the board

    function actions(state) {
      const box = $("result-actions");
      box.innerHTML = "";
      const add = (text, onClick, primary) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        if (primary) b.className = "primary";
        b.addEventListener("click", onClick);
        box.appendChild(b);
        return b;
      };
      const role = page.role();
      const computer = state.seats.filter((s) => s.kind === "ai");
      const level = computer.length ? computer[0].level : null;
      if (role !== "spectator") {
        const offered = (state.offers && state.offers.rematch) || [];
        const mine = offered.some((s) => page.mySeats().includes(s));
        const label = state.mode === "online"
          ? (offered.length && !mine ? I18n.t("Accept the rematch") : I18n.t("Offer a rematch")) : I18n.t("Play again");
        const b = add(label, () => page.offerRematch(), true);
        b.id = "play-again";
        b.title = "R";
        b.disabled = mine;
        if (mine) b.textContent = I18n.t("Rematch offered");
      }
      if (role !== "spectator" && state.mode === "ai" && typeof level === "number" && computer.length < state.seats.length) {
        if (level < 3) add(I18n.t("Harder computer"), () => againstComputer(page, level + 1)).id = "harder";
        if (level > 1) add(I18n.t("Easier computer"), () => againstComputer(page, level - 1)).id = "easier";
      }
      // The computer's analysis (match-analysis.js): offered once the game may be analysed and is not yet.
      if (page.analysable && page.analysable()) add(I18n.t("Analyse"), () => { close(); page.analyse(); }).id = "result-analyse";
      add(I18n.t("New game"), () => Q.newGame(page)).id = "result-new";
      const exp = document.createElement("a");
      exp.href = $("export").href;
      exp.setAttribute("download", "");
      exp.className = "button";
      exp.textContent = I18n.t("Export");
      box.appendChild(exp);
      add(I18n.t("Look at the board"), close).id = "look";
    }

    function close() {
      closedAt = page.state().version;
      overlay.hidden = true;
      $("show-result").hidden = false;
    }
    $("show-result").addEventListener("click", () => { closedAt = null; render(page.state()); });

    function render(state) {
      const over = !!state.outcome;
      if (!over) { overlay.hidden = true; $("show-result").hidden = true; closedAt = null; return; }
      $("result-title").textContent = title(page);
      $("result-reason").textContent = reasonText(page);
      $("result-score").textContent = scoreText(page);
      const ratings = window.QuadrilleRatings.resultLines(state, page); // a rated game's change (match-ratings.js)
      $("result-rating").replaceChildren(...ratings.map((line) => Object.assign(document.createElement("span"),
                                                                                { textContent: line })));
      $("result-rating").hidden = !ratings.length;
      overlay.dataset.outcome = state.outcome.winners.length
        ? (page.role() === "player" ? (state.outcome.winners.some((s) => page.mySeats().includes(s)) ? "won" : "lost") : "win")
        : "draw";
      actions(state);
      const closed = closedAt !== null && closedAt === state.version;
      overlay.hidden = closed || page.replaying();
      $("show-result").hidden = !overlay.hidden;
      if (!overlay.hidden) $("rematch").hidden = true; // the result screen offers it
    }

    return {
      render,
      key(event) {
        if (event.key === "Escape" && !overlay.hidden) { close(); return true; }
        return false;
      },
    };
  });
})();
