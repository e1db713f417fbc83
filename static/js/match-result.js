// The end of a game: a result screen over the board, in the viewer's terms ("You won", "You lost", "Draw";
// "Red wins" for spectators and on one screen), the reason in plain words, the final score, and what fits
// the mode next: play again (same options, sides swapped), a harder or easier computer, a rematch offer, a new
// game, export, or closing it to look at the board.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const Q = window.Quadrille;

  // Why a game ended, when a match decision (not the rules) ended it; each renderer words its own endings.
  function platformReason(outcome, page) {
    const who = (seats) => page.names(seats || []);
    // "You" to the player of that seat (never on one screen, where the viewer holds every seat).
    const subject = (seat) => {
      const mine = page.role() === "player" ? page.mySeats() : [];
      return mine.includes(seat) && mine.length < (page.state().seats || []).length ? "You" : who([seat]);
    };
    switch (outcome.reason) {
      case "resigned": return `${subject(outcome.resigned)} resigned.`;
      case "aborted": if (outcome.by === "site") return "The site's moderators closed this match: it has no result.";
        return page.state().moves.length || page.state().started
        ? `${subject(outcome.aborted)} aborted the game: it has no result.`
        : `${subject(outcome.aborted)} cancelled the match before it began.`;
      case "agreed": return "Both players agreed to a draw.";
      case "abandoned": return `${who(outcome.abandoned)} left the game and did not come back in time.`;
      case "move-limit": return "The game reached its move limit.";
      case "time": {
        const ran = `${subject(outcome.flagged)} ran out of time`;
        return (outcome.winners || []).length ? `${ran}.` : `${ran}, but the other side could not win any more: a draw.`;
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
    if (outcome.reason === "aborted" && outcome.by === "site") return "Match closed";
    if (outcome.reason === "aborted") return state.started ? "Game aborted" : "Match cancelled";
    const winners = outcome.winners || [];
    if (!winners.length) return "Draw";
    if (page.role() === "player") {
      return winners.some((s) => page.mySeats().includes(s)) ? (winners.length > 1 ? "You share the win" : "You won")
        : "You lost";
    }
    return `${page.names(winners)} ${winners.length > 1 ? "win" : "wins"}`;
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
    const created = await answer.json().catch(() => ({ reason: "The server answered oddly." }));
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
        const label = state.mode === "online" ? (offered.length && !mine ? "Accept the rematch" : "Offer a rematch")
          : "Play again";
        const b = add(label, () => page.offerRematch(), true);
        b.id = "play-again";
        b.title = "R";
        b.disabled = mine;
        if (mine) b.textContent = "Rematch offered";
      }
      if (role !== "spectator" && state.mode === "ai" && typeof level === "number" && computer.length < state.seats.length) {
        if (level < 3) add("Harder computer", () => againstComputer(page, level + 1)).id = "harder";
        if (level > 1) add("Easier computer", () => againstComputer(page, level - 1)).id = "easier";
      }
      // The computer's analysis (match-analysis.js): offered once the game may be analysed and is not yet.
      if (page.analysable && page.analysable()) add("Analyse", () => { close(); page.analyse(); }).id = "result-analyse";
      add("New game", () => Q.newGame(page)).id = "result-new";
      const exp = document.createElement("a");
      exp.href = $("export").href;
      exp.setAttribute("download", "");
      exp.className = "button";
      exp.textContent = "Export";
      box.appendChild(exp);
      add("Look at the board", close).id = "look";
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
