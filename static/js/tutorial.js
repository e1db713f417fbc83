// The tutorial runner (/learn/<game>): the game's own renderer draws each step's position, and every move the
// learner tries goes to the server, which checks it against the lesson and the real engine
// (POST /api/learn/<game>/steps/<k>). This page never decides what is legal or right: it draws what it is sent.
//
// It stands in for the match page's Quadrille object: renderers register with Quadrille.register(name, spec) and
// are mounted with a ctx of the same shape (play, canPlay, mySeats, state, message, emit).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const ask = window.QuadrilleDialog.ask; // the pages' one question dialog (static/js/dialog.js)
  const Quadrille = (window.Quadrille = { renderers: {}, register, start, ask });
  function register(name, renderer) { Quadrille.renderers[name] = renderer; }
  const $ = (id) => document.getElementById(id);

  const api = window.QuadrilleApi; // static/js/api.js

  function start() {
    const root = $("lesson");
    const lesson = JSON.parse($("lesson-data").textContent);
    const game = lesson.game;
    const count = lesson.steps.length;
    let step = lesson.first;   // the step being played: {index, title, text, marks, you, state}
    let state = step.state;    // the position drawn (the step's, or the one after the right move)
    let solved = false;
    let busy = false;
    let drawn = 0;             // a version of our own for each position drawn (renderers reset their selection on it)
    let replaying = 0;         // the reply being shown (a new step or a restart stops it)
    let inReply = false;       // a position before the end of the reply is drawn
    const REPLY_PAUSE = 600;   // ms between the learner's move and the reply, time to see one, then the other

    const ctx = {
      play(move) {
        if (busy || solved) return;
        tryMove(move);
      },
      canPlay: () => !busy && !solved && state.turn === step.you,
      mySeats: () => [step.you],
      state: () => state,
      message: (text, kind) => feedback(text, kind === "error" ? "error" : ""),
      emit(event, payload, done) {
        // The only platform event a renderer sends in a lesson is Towers' Undo: it starts the step again.
        if (event === "takeback") { load(step.index); if (done) done({ ok: true }); return; }
        feedback(I18n.t("That is not part of this lesson."), "error");
        if (done) done({ ok: false, reason: "not in a lesson" });
      },
    };
    const spec = Quadrille.renderers[game];
    const renderer = spec.mount($("board-area"), ctx);

    function feedback(text, kind) {
      const box = $("step-feedback");
      box.textContent = text || "";
      box.className = "step-feedback" + (kind ? " " + kind : "");
    }

    function mark(marks) {
      for (const cell of root.querySelectorAll("[data-mark]")) delete cell.dataset.mark;
      for (const attrs of marks) {
        const selector = ".cell" + Object.entries(attrs).map(([k, v]) => `[data-${k}="${CSS.escape(String(v))}"]`).join("");
        for (const cell of $("board-area").querySelectorAll(selector)) cell.dataset.mark = "1";
      }
    }

    function draw() {
      drawn += 1;
      renderer.draw(state.view, { ...state, version: drawn }, true);
      mark(solved ? [] : step.marks);
      root.dataset.step = step.index;
      root.dataset.solved = solved && !inReply ? "1" : ""; // "1" once the reply is on the board too
      root.dataset.turn = state.turn == null ? "" : state.turn;
      root.dataset.version = drawn;
    }

    function show(next) {
      replaying += 1;
      inReply = false;
      step = next;
      state = next.state;
      solved = false;
      $("step-progress").textContent = I18n.t("Step {number} of {count}", { number: step.index + 1, count });
      $("step-title").textContent = step.title;
      $("step-text").textContent = step.text;
      feedback("");
      $("step-prev").disabled = step.index === 0;
      $("step-next").disabled = true;
      $("step-next").textContent = step.index === count - 1 ? I18n.t("Finish") : I18n.t("Next step");
      $("lesson-end").hidden = true;
      for (const li of $("lesson-steps").children) {
        if (Number(li.dataset.index) === step.index) li.setAttribute("aria-current", "step");
        else li.removeAttribute("aria-current");
        if (Number(li.dataset.index) < step.index) li.classList.add("done");
      }
      draw();
    }

    async function load(index, focusTitle) {
      busy = true;
      let next;
      try {
        next = await api(`/api/learn/${game}/steps/${index}`);
      } catch (error) {
        busy = false;
        feedback(error.reason || I18n.t("This step could not be loaded."), "error");
        return;
      }
      busy = false; // before drawing: the renderer asks canPlay() while it draws
      show(next);
      if (focusTitle) $("step-title").focus();
    }

    // The learner's move, then the opponent's reply that the closing sentence announces, one position at a time
    // (each animated by the renderer), so that the board shows what the sentence says. False when the learner
    // started another step meanwhile.
    async function replay(states) {
      const mine = ++replaying;
      for (const [i, next] of states.entries()) {
        if (i) await new Promise((done) => setTimeout(done, REPLY_PAUSE));
        if (mine !== replaying) return false;
        inReply = i < states.length - 1;
        state = next;
        draw();
      }
      return true;
    }

    async function tryMove(move) {
      busy = true;
      let answer;
      try {
        answer = await api(`/api/learn/${game}/steps/${step.index}`, { move });
      } catch (error) {
        busy = false;
        feedback(error.reason || I18n.t("The server could not check that move."), "error");
        return;
      }
      busy = false;
      if (answer.verdict !== "right") {
        const why = answer.reason ? answer.reason.charAt(0).toUpperCase() + answer.reason.slice(1) : "";
        const reason = `${why}${why && !/[.!?]$/.test(why) ? "." : ""}`;
        feedback(I18n.t("{reason} Hint: {hint}", { reason, hint: answer.hint }).trim(), "error");
        draw(); // back to the step's position, with its marks
        return;
      }
      solved = true;
      if (!(await replay(answer.states || [answer.state]))) return; // the learner left the step meanwhile
      feedback(answer.done, "right");
      $("step-next").disabled = false;
      $("step-next").focus();
      for (const li of $("lesson-steps").children) if (Number(li.dataset.index) === step.index) li.classList.add("done");
    }

    $("step-next").addEventListener("click", () => {
      if (!solved) return;
      if (step.index === count - 1) {
        $("lesson-end").hidden = false;
        $("step-next").disabled = true;
        root.dataset.finished = "1";
        $("lesson-end-title").focus();
        return;
      }
      load(step.index + 1, true);
    });
    $("step-prev").addEventListener("click", () => { if (step.index > 0) load(step.index - 1, true); });
    $("step-again").addEventListener("click", () => load(step.index));
    for (const li of $("lesson-steps").children) {
      li.addEventListener("click", () => { if (li.classList.contains("done")) load(Number(li.dataset.index), true); });
    }

    document.addEventListener("keydown", (event) => {
      if (!window.QuadrilleBoard.boardKey(event)) return;
      if (renderer && renderer.key && renderer.key(event)) event.preventDefault();
    });

    draw();
  }
})();
