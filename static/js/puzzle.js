// The puzzle runner (/puzzles, /puzzles/<game>, /puzzles/daily): the game's own renderer draws the puzzle's
// position, and every move the solver makes goes to the server (POST /api/puzzles/<id>/attempt with the solver's
// moves so far), which checks it against the solution on the real engine. This page never decides what is legal
// or right: it draws the STATEs it is sent, the opponent's reply after a short pause, and on a wrong move that
// move, then the right line.
//
// Like the tutorial runner, it stands in for the match page's Quadrille object: renderers register with
// Quadrille.register(name, spec) and are mounted with a ctx of the same shape (play, canPlay, mySeats, state,
// message, emit). A guest's puzzle rating lives in this browser (localStorage) and goes with each attempt.
(function () {
  "use strict";
  const WORDS = {
    task: I18n.t("Find the best move"),
    solved: I18n.t("Solved!"),
    afterwards: I18n.t("The board shows the end of the best line. Press Next puzzle for another."),
    failed: I18n.t("Not this one"),
    youPlay: (side) => I18n.t("You play {side}. Find the best continuation: the opponent's replies are played for you.", { side }),
    seat: (seat) => I18n.t("player {seat}", { seat }),
    right: I18n.t("Best move! Keep going."),
    rightReply: I18n.t("Best move! Now the opponent answers…"),
    solvedText: I18n.t("Solved! That was the best line."),
    wrong: I18n.t("That is not the best move. Here is the right line."),
    refused: I18n.t("That move is not allowed here."),
    notHere: I18n.t("Taking moves back is not part of a puzzle."),
    unreachable: I18n.t("The server could not check that move."),
    noNext: I18n.t("The next puzzle could not be loaded."),
    rated: (change) => {
      const points = Math.abs(Math.round(change));
      return change >= 0 ? I18n.n("Your rating rises by {count} point.", "Your rating rises by {count} points.", points)
        : I18n.n("Your rating drops by {count} point.", "Your rating drops by {count} points.", points);
    },
    unrated: I18n.t("You had a result on this puzzle before: this try is not rated."),
    themes: (list) => list.map(themeName).join(", ") || I18n.t("none"),
  };
  // The themes' names (the ids are the server's, quadrille/puzzles/theme_words.py names them the same way).
  const THEMES = {
    "forced-win": I18n.t("forced win"),
    "material": I18n.t("material"),
    "one-move": I18n.t("one move"),
    // TRANSLATORS: Gamma's golden move, as the rules name it
    "golden-move": I18n.t("golden move"),
    // TRANSLATORS: Lattice Checkers: a move in the extra turn a promotion earned
    "extra-turn": I18n.t("extra turn"),
    "capture-chain": I18n.t("capture chain"),
    "promotion": I18n.t("promotion"),
    // TRANSLATORS: Towers: pawns brought from the reserve onto the master
    "import": I18n.t("from the reserve"),
    "capture": I18n.t("capture"),
    "master-capture": I18n.t("capturing the master"),
    // TRANSLATORS: Trails and Towers: a move that takes a tower
    "tower": I18n.t("taking a tower"),
    "tower-win": I18n.t("won by towers"),
    "trap": I18n.t("trap"),
  };
  function themeName(theme) {
    const won = /^win-in-(\d+)$/.exec(theme);
    if (won) return I18n.n("win in {count} turn", "win in {count} turns", Number(won[1]));
    return THEMES[theme] || theme.replace(/-/g, " ");
  }
  const STORE_KEY = "quadrille.puzzleRating";
  const REPLY_PAUSE = 600;   // ms between the solver's move and the opponent's reply
  const WRONG_PAUSE = 900;   // ms the wrong move stays on the board before the right line is shown
  const GUEST_NEAR = 150;    // a guest whose rating is this far from a newcomer's gets a puzzle chosen for it

  const ask = window.QuadrilleDialog.ask;
  const Quadrille = (window.Quadrille = { renderers: {}, register, start, ask });
  function register(name, renderer) { Quadrille.renderers[name] = renderer; }
  const $ = (id) => document.getElementById(id);
  const api = window.QuadrilleApi; // static/js/api.js
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));

  function guestRating() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
      return kept && typeof kept.rating === "number" ? kept : null;
    } catch (error) { return null; }
  }
  function keepGuestRating(rating) {
    try { localStorage.setItem(STORE_KEY, JSON.stringify({ rating: rating.rating, rd: rating.rd, volatility: rating.volatility })); }
    catch (error) { /* private browsing: the rating lasts this page */ }
  }

  function start() {
    const root = $("puzzle");
    const data = JSON.parse($("puzzle-data").textContent);
    const game = root.dataset.game;
    let puzzle = data.puzzle;  // {id, game, turn, state, rating, themes, you?}
    let state = puzzle.state;  // the position drawn
    let mine = [];             // the solver's moves so far (all right)
    let phase = "solving";     // solving | showing (a reply or the line being drawn) | over
    let busy = false;
    let drawn = 0;             // a version of our own per position drawn (renderers reset their selection on it)
    let shown = 0;             // the puzzle being shown (a new one stops a line being drawn)

    const ctx = {
      play(move) { if (ctx.canPlay()) tryMove(move); },
      canPlay: () => !busy && phase === "solving" && state.turn === puzzle.turn,
      mySeats: () => [puzzle.turn],
      state: () => state,
      message: (text, kind) => feedback(text, kind === "error" ? "error" : ""),
      emit(event, payload, done) {
        feedback(WORDS.notHere, "error");
        if (done) done({ ok: false, reason: "not in a puzzle" });
      },
    };
    const renderer = Quadrille.renderers[game].mount($("board-area"), ctx);

    function feedback(text, kind) {
      const box = $("puzzle-feedback");
      box.textContent = text || "";
      box.className = "step-feedback" + (kind ? " " + kind : "");
    }

    function draw() {
      drawn += 1;
      renderer.draw(state.view, { ...state, version: drawn }, true);
      root.dataset.phase = phase;
      root.dataset.mine = mine.length; // the solver's right moves so far (tests wait on it)
      root.dataset.turn = state.turn == null ? "" : state.turn;
      root.dataset.version = drawn;
    }

    function showRatings(you) {
      $("puzzle-rating").textContent = Math.round(puzzle.rating.rating);
      $("puzzle-themes").textContent = WORDS.themes(puzzle.themes || []);
      const mineNow = you || (data.account ? puzzle.you : guestRating() || puzzle.you);
      if (mineNow) $("your-rating").textContent = Math.round(mineNow.rating) + (mineNow.rd > 110 ? "?" : "");
    }

    function show(next) {
      shown += 1;
      puzzle = next;
      state = next.state;
      mine = [];
      phase = "solving";
      root.dataset.puzzle = next.id;
      root.dataset.result = "";
      $("puzzle-task").textContent = WORDS.task;
      $("puzzle-side-to-move").textContent = WORDS.youPlay((data.sides || {})[String(next.turn)] || WORDS.seat(next.turn));
      $("puzzle-next").hidden = true;
      feedback("");
      showRatings();
      draw();
    }

    // STATEs one after another, each drawn (and animated by the renderer) after `gap` ms; false when another
    // puzzle was shown meanwhile.
    async function playOut(states, gap, first) {
      const mineNow = shown;
      for (const [i, next] of states.entries()) {
        if (i || first) await pause(gap);
        if (mineNow !== shown) return false;
        state = next;
        draw();
      }
      return true;
    }

    function guestBody() {
      return data.account ? {} : { rating: guestRating() || undefined };
    }

    async function tryMove(move) {
      busy = true;
      let answer;
      try {
        answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/attempt`, { moves: [...mine, move], ...guestBody() });
      } catch (error) {
        busy = false;
        feedback(error.error === "bad-moves" ? `${WORDS.refused} ${error.reason}` : error.reason || WORDS.unreachable, "error");
        draw(); // back to the position as it was
        return;
      }
      busy = false;
      const before = state;
      phase = "showing";
      if (answer.correct) {
        mine.push(move);
        feedback(answer.done ? WORDS.solvedText : (answer.reply || []).length ? WORDS.rightReply : WORDS.right, "right");
        if (!(await playOut(answer.states, REPLY_PAUSE, false))) return;
        if (!answer.done) { phase = "solving"; draw(); if ((answer.reply || []).length) feedback(WORDS.right, "right"); return; }
        finish(answer, true);
        return;
      }
      feedback(WORDS.wrong, "error");
      state = answer.played;
      draw();
      await pause(WRONG_PAUSE);
      state = before;
      if (!(await playOut(answer.states, REPLY_PAUSE, true))) return;
      finish(answer, false);
    }

    function finish(answer, solved) {
      phase = "over";
      root.dataset.result = solved ? "solved" : "failed";
      $("puzzle-task").textContent = solved ? WORDS.solved : WORDS.failed;
      $("puzzle-side-to-move").textContent = WORDS.afterwards;
      if (!data.account && answer.rating) keepGuestRating(answer.rating);
      if (answer.puzzle_rating) puzzle.rating = answer.puzzle_rating;
      showRatings(answer.rating);
      const said = solved ? WORDS.solvedText : WORDS.wrong;
      feedback(`${said} ${answer.rated ? WORDS.rated(answer.change || 0) : WORDS.unrated}`, solved ? "right" : "error");
      draw();
      $("puzzle-next").hidden = false;
      $("puzzle-next").focus();
    }

    function nextQuery(gameAsked) {
      const query = new URLSearchParams();
      if (gameAsked) query.set("game", gameAsked);
      const kept = data.account ? null : guestRating();
      if (kept) for (const name of ["rating", "rd", "volatility"]) query.set(name, kept[name]);
      return `/api/puzzles/next?${query}`;
    }

    async function loadNext(gameAsked, inPlace) {
      let next;
      try {
        next = await api(nextQuery(gameAsked));
      } catch (error) {
        feedback(error.reason || WORDS.noNext, "error");
        return;
      }
      if (next.game !== game || !inPlace) { window.location.assign(`/puzzles?id=${encodeURIComponent(next.id)}`); return; }
      show(next);
      $("puzzle-task").focus();
    }

    $("puzzle-next").addEventListener("click", () => {
      if (data.mode === "game") loadNext(data.game, true);
      else if (data.mode === "mixed") loadNext(null, true);
      else window.location.assign("/puzzles");
    });

    document.addEventListener("keydown", (event) => {
      if (!window.QuadrilleBoard.boardKey(event)) return;
      if (renderer && renderer.key && renderer.key(event)) event.preventDefault();
    });

    show(puzzle);
    // A guest far from a newcomer's rating: the server chose the first puzzle without knowing it.
    const kept = data.account ? null : guestRating();
    const asked = new URLSearchParams(window.location.search).has("id");
    if (kept && !asked && data.mode !== "daily" && Math.abs(kept.rating - 1500) > GUEST_NEAR) loadNext(game, true);
  }
})();
