// The analysis board (/analysis/<game>): a line of moves from the game's start, played for every seat, stepped
// through, evaluated by the computer, shared as a link and exported. The game's own renderer draws each position;
// every move goes to the server with the line before it (POST /api/analysis/board/state), which checks it on
// the engine and answers the new STATE: this page never decides what is legal. Nothing is kept on the server.
//
// Like the tutorials (tutorial.js), it stands in for the match page's Quadrille object: renderers register with
// Quadrille.register(name, spec) and are mounted with a ctx of the same shape (play, canPlay, mySeats, state,
// message, emit). The move list is the match page's own part (match-moves.js), given a page of the same shape.
(function () {
  "use strict";
  const WORDS = {
    toMove: (who) => I18n.t("{player} to move", { player: who }),
    showing: (ply, last, who, move) => I18n.t("Move {ply} of {total}: {player}, {move}", { ply, total: last, player: who, move }),
    start: I18n.t("The start position"),
    draw: I18n.t("Draw"),
    wins: (winners) => I18n.n("{players} wins", "{players} win", winners.length,
      { players: new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(winners) }),
    plyLabel: (ply, last) => I18n.t("move {ply} of {total}", { ply, total: last }),
    thinking: I18n.t("The computer is thinking…"),
    unavailable: I18n.t("The computer's evaluation is not available just now."),
    busy: I18n.t("Too many requests from your address; the evaluation comes back in a moment."),
    level: I18n.t("About level"),
    better: (who) => I18n.t("{player} is better", { player: who }),
    worse: (who) => I18n.t("{player} is worse", { player: who }),
    winsByForce: (who) => I18n.t("{player} wins by force", { player: who }),
    losesByForce: (who) => I18n.t("{player} loses by force", { player: who }),
    noBest: I18n.t("None: the game is over here."),
    none: "–",
    stepFailed: I18n.t("That position could not be loaded."),
    moveFailed: I18n.t("The server could not check that move."),
    notHere: I18n.t("That is not part of the analysis board."),
    copied: I18n.t("Link copied."),
    copyFailed: I18n.t("Copy the link from the box beside the button."),
    flipOn: I18n.t("Board turned: the second side at the bottom."),
  };
  const ask = window.QuadrilleDialog.ask;
  const Quadrille = (window.Quadrille = { renderers: {}, parts: {}, register, part, start, ask });
  function register(name, renderer) { Quadrille.renderers[name] = renderer; }
  function part(name, mount) { Quadrille.parts[name] = mount; }
  const $ = (id) => document.getElementById(id);
  const api = window.QuadrilleApi; // static/js/api.js
  const EVAL_DELAY = 300;          // ms of quiet after a change before the computer is asked
  const SCALE = 1000;              // an evaluation is from -1000 to 1000 from the first seat's side (ai/analysis.py)

  function start() {
    const root = $("analysis");
    const data = JSON.parse($("board-data").textContent);
    const game = data.game;
    const spec = Quadrille.renderers[game] || {};
    let line = data.line.slice();                        // the moves of the line on the board
    let names = data.line_state.move_names.slice();      // each in words (the server's names)
    let movers = data.line_state.movers.slice();         // who played each
    const original = { line: line.slice(), names: names.slice(), movers: movers.slice() };
    let ply = data.ply;                                  // the position shown: after `ply` moves of the line
    let state = data.state;                              // its STATE
    let busy = false, drawn = 0, flipped = false;
    const states = new Map([[key(line.slice(0, ply)), state], [key(line), data.line_state]]);
    const evals = new Map();                             // the computer's answers, per position

    function key(moves) { return moves.join(" "); }
    // the STATE's English colour, in the page's words (a side of a two-sided game as a side)
    const seatName = (name) => (spec.sides ? window.QuadrilleBoard.sideName : window.QuadrilleBoard.seatName)(name);
    const label = (seat) => (state.seat_names && seatName(state.seat_names[seat - 1]))
      || (spec.seatLabel ? spec.seatLabel(seat, state) : I18n.t("Player {number}", { number: seat }));
    const sentence = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?)]$/.test(text) ? "" : ".") : "");
    function message(text, kind) {
      const box = $("board-message");
      box.textContent = text || "";
      box.className = "step-feedback" + (kind ? " " + kind : "");
    }

    const seats = () => Array.from({ length: state.players }, (_, k) => k + 1);
    const ctx = {
      play(move) { if (!busy) playMove(move); },
      canPlay: () => !busy && state.turn != null,
      mySeats: seats,
      state: () => state,
      message: (text, kind) => message(text, kind === "error" ? "error" : ""),
      emit(event, payload, done) {
        // Towers' Undo is the only platform event a renderer sends here: it steps back one move.
        if (event === "takeback") { stepTo(ply - 1); if (done) done({ ok: true }); return; }
        message(WORDS.notHere, "error");
        if (done) done({ ok: false, reason: WORDS.notHere });
      },
      flipped: () => flipped,
    };
    const renderer = spec.mount ? spec.mount($("board-area"), ctx) : null;

    // The match page's move list (match-moves.js) reads the line through a page of the match page's shape.
    const lineState = () => ({ ...state, moves: line, move_names: names, movers });
    const page = {
      root, ctx, spec, label, state: lineState, mySeats: seats, myTurn: () => false,
      moveName: (st, i) => (st.move_names && st.move_names[i]) || st.moves[i],
      replayPly: () => (ply === line.length ? null : ply),
      stepTo: (to) => stepTo(to),
    };
    const parts = Object.values(Quadrille.parts).map((mount) => mount(page) || {});

    // -- drawing -------------------------------------------------------------------------------------------
    function statusText() {
      const outcome = state.outcome;
      if (outcome) {
        const winners = outcome.winners || [];
        const head = winners.length ? WORDS.wins(winners.map(label)) : WORDS.draw;
        const why = spec.reasonText ? spec.reasonText(outcome.reason, outcome, state.seat_names || [], state) : "";
        return why ? `${head}: ${why}` : head;
      }
      return state.turn != null ? WORDS.toMove(label(state.turn)) : "";
    }

    function draw() {
      drawn += 1;
      if (renderer) renderer.draw(state.view, { ...state, version: drawn }, true);
      for (const p of parts) if (p.render) p.render(lineState(), lineState());
      $("status").textContent = statusText();
      $("shown").textContent = ply ? WORDS.showing(ply, line.length, label(movers[ply - 1] || 1), names[ply - 1] || line[ply - 1])
        : WORDS.start;
      $("ply-label").textContent = WORDS.plyLabel(ply, line.length);
      // (never disabled: a button that is pressed with the keyboard keeps the focus at either end of the line)
      for (const id of ["step-first", "step-back"]) $(id).setAttribute("aria-disabled", String(ply === 0));
      for (const id of ["step-forward", "step-last"]) $(id).setAttribute("aria-disabled", String(ply === line.length));
      $("original-line").hidden = key(line) === key(original.line);
      $("flip").hidden = !spec.flips;
      $("flip").setAttribute("aria-pressed", String(flipped));
      Object.assign(root.dataset, { ply, length: line.length, version: drawn, turn: state.turn == null ? "" : state.turn });
      share();
    }

    // -- the address, the shared link and the exports follow the line ------------------------------------------
    function query(moves, shown) {
      const q = new URLSearchParams();
      if (Object.keys(data.link_options).length) q.set("options", JSON.stringify(data.link_options));
      if (moves.length) q.set("moves", moves.join(" "));
      if (shown !== undefined && shown !== moves.length) q.set("ply", String(shown));
      return q;
    }
    function share() {
      const q = query(line, ply).toString();
      const path = `/analysis/${game}${q ? "?" + q : ""}`;
      history.replaceState(null, "", path);
      $("share-link").value = window.location.origin + path;
      for (const a of root.querySelectorAll("a.export-line")) {
        const e = query(line.slice(0, ply));
        e.set("game", game);
        e.set("format", a.dataset.format);
        a.href = `/api/analysis/board/export?${e}`;
      }
    }

    $("copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($("share-link").value);
        message(WORDS.copied, "right");
      } catch (error) {
        $("share-link").select();
        message(WORDS.copyFailed);
      }
    });

    // -- playing: the server answers each move with the new STATE (or the engine's reason) --------------------
    async function playMove(move) {
      const before = line.slice(0, ply);
      busy = true;
      let next;
      try {
        next = await api("/api/analysis/board/state", { game, options: data.options, moves: before.concat([move]) });
      } catch (error) {
        busy = false;
        message(sentence(error.reason) || WORDS.moveFailed, "error");
        draw(); // the position as it was (a renderer may have drawn a half-made move)
        return;
      }
      busy = false;
      message("");
      states.set(key(next.moves), next);
      if (line[ply] !== move) { // another move than the line's: the rest of the line goes
        line = next.moves.slice();
        names = next.move_names.slice();
        movers = next.movers.slice();
      }
      ply += 1;
      state = next;
      changed();
    }

    function changed() {
      draw();
      scheduleEvaluation();
    }

    // -- stepping: positions come from the server (and are kept); the newest wish wins -----------------------
    let wanted = null, fetching = false;
    async function stepTo(to, force) {
      to = Math.max(0, Math.min(line.length, to));
      if (to === ply && wanted === null && !force) return;
      const cached = states.get(key(line.slice(0, to)));
      if (cached) { wanted = null; ply = to; state = cached; changed(); return; }
      wanted = to;
      $("ply-label").textContent = WORDS.plyLabel(to, line.length);
      if (fetching) return;
      fetching = true;
      while (wanted !== null) {
        const target = wanted, moves = line.slice(0, target);
        try {
          const next = await api("/api/analysis/board/state", { game, options: data.options, moves });
          states.set(key(moves), next);
          if (wanted === target && key(line.slice(0, target)) === key(moves)) {
            wanted = null; ply = target; state = next; changed();
          }
        } catch (error) {
          wanted = null;
          message(sentence(error.reason) || WORDS.stepFailed, "error");
        }
      }
      fetching = false;
    }

    $("step-first").addEventListener("click", () => stepTo(0));
    $("step-back").addEventListener("click", () => stepTo(ply - 1));
    $("step-forward").addEventListener("click", () => stepTo(ply + 1));
    $("step-last").addEventListener("click", () => stepTo(line.length));
    $("original-line").addEventListener("click", () => {
      let same = 0; // back to where the lines part
      while (same < line.length && same < original.line.length && line[same] === original.line[same]) same += 1;
      line = original.line.slice(); names = original.names.slice(); movers = original.movers.slice();
      stepTo(same, true);
    });
    $("flip").addEventListener("click", () => { flipped = !flipped; draw(); });

    // -- the computer's evaluation of the position shown (debounced; a stale answer is cancelled) ------------
    let timer = null, pending = null;
    function scheduleEvaluation() {
      clearTimeout(timer);
      if (pending) pending.abort();
      const moves = line.slice(0, ply);
      const known = evals.get(key(moves));
      if (known) { showEvaluation(known, moves); return; }
      clearEvaluation(WORDS.thinking);
      timer = setTimeout(() => evaluate(moves), EVAL_DELAY);
    }

    async function evaluate(moves) {
      const asked = (pending = new AbortController());
      try {
        const response = await fetch("/api/analysis/position", {
          method: "POST", credentials: "same-origin", signal: asked.signal,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ game, options: data.options, moves }),
        });
        const answer = await response.json().catch(() => ({}));
        if (!response.ok) throw Object.assign(new Error(answer.reason || ""), { status: response.status });
        answer.names = await lineNames(moves, answer.line || []);
        if (asked.signal.aborted) return;
        evals.set(key(moves), answer);
        showEvaluation(answer, moves);
      } catch (error) {
        if (error.name === "AbortError" || asked.signal.aborted) return;
        clearEvaluation(error.status === 429 ? WORDS.busy : WORDS.unavailable);
      }
    }

    // The best line in words: the server names moves (the STATE's move_names after the line is played on).
    async function lineNames(moves, best) {
      if (!best.length) return [];
      try {
        const after = await api("/api/analysis/board/state", { game, options: data.options, moves: moves.concat(best) });
        return after.move_names.slice(moves.length);
      } catch (error) {
        return best.slice();
      }
    }

    // No answer for the position shown (yet): no number, an even bar, and why.
    function clearEvaluation(words) {
      const box = $("evaluation");
      box.dataset.for = "";
      box.dataset.eval = box.dataset.best = "";
      $("eval-score").textContent = WORDS.none;
      $("eval-words").textContent = words;
      $("eval-fill").style.width = "50%";
      $("eval-line").textContent = WORDS.none;
    }

    function showEvaluation(answer, moves) {
      if (key(moves) !== key(line.slice(0, ply))) return;
      const score = Math.max(-SCALE, Math.min(SCALE, Number(answer.eval) || 0));
      $("eval-score").textContent = number(score);
      $("eval-words").textContent = state.players > 2 && answer.evals ? eachSeat(answer.evals) : evalWords(score);
      $("eval-fill").style.width = `${(score + SCALE) / (2 * SCALE) * 100}%`;
      $("eval-line").textContent = answer.names && answer.names.length ? answer.names.join("  ") : WORDS.noBest;
      const box = $("evaluation");
      box.dataset.for = key(moves);
      box.dataset.eval = String(score);
      box.dataset.best = answer.best || "";
    }

    // With more than two players (Gamma) one number says little: each seat's, from its own side.
    function eachSeat(evals) {
      return seats().map((seat) => `${label(seat)} ${number(Number(evals[seat]) || 0)}`).join(" · ");
    }
    const number = (score) => (score > 0 ? "+" : score < 0 ? "−" : "") + (Math.abs(score) / 100).toFixed(1);

    function evalWords(score) {
      const first = label(1);
      if (score >= SCALE) return WORDS.winsByForce(first);
      if (score <= -SCALE) return state.players === 2 ? WORDS.winsByForce(label(2)) : WORDS.losesByForce(first);
      if (Math.abs(score) < 50) return WORDS.level;
      if (score > 0) return WORDS.better(first);
      return state.players === 2 ? WORDS.better(label(2)) : WORDS.worse(first);
    }

    // -- keys: [ and ] step anywhere; the arrows, Home and End step unless the board takes them --------------
    document.addEventListener("keydown", (event) => {
      const t = event.target;
      if (!window.QuadrilleBoard.boardKey(event)) return;
      for (const p of parts) if (p.key && p.key(event)) { event.preventDefault(); return; }
      const steps = { "[": () => stepTo(ply - 1), "]": () => stepTo(ply + 1) };
      const inNav = t.closest && t.closest("#analysis-nav");
      const arrows = { ArrowLeft: () => stepTo(ply - 1), ArrowRight: () => stepTo(ply + 1),
                       Home: () => stepTo(0), End: () => stepTo(line.length) };
      if (steps[event.key]) { steps[event.key](); event.preventDefault(); return; }
      if (inNav && arrows[event.key]) { arrows[event.key](); event.preventDefault(); return; }
      if (renderer && renderer.key && renderer.key(event)) { event.preventDefault(); return; }
      if (arrows[event.key] && !event.shiftKey) { arrows[event.key](); event.preventDefault(); }
    });

    draw();
    scheduleEvaluation();
  }
})();
