// The match page's core: one Socket.IO connection, the server's STATE, and a game renderer that draws it.
//
// The server holds the truth: this script never decides legality. It sends what the player did (a move string
// made by the game's renderer, or a match decision) and redraws whatever `state` the server sends back.
// Renderers register with Quadrille.register(name, renderer):
//   renderer.mount(boardArea, ctx) -> { draw(view, state, live), key(event) -> handled? }
//   renderer.seatLabel(seat, state) -> "Blue", "Red", ... (the STATE's seat_names come first)
//   renderer.reasonText(reason, outcome, names) -> a sentence saying why the game ended, in plain words
//   renderer.captured(state, previous) -> whether the move just drawn took something (the capture sound)
//   renderer.flips -> true when the board has a side for each player (drawn turned for the second seat)
// The rest of the page is split by concern into parts (match-status.js: the status line, seats and buttons;
// match-actions.js: restart, resign, rematch, new game, leave; match-dialogs.js, match-signals.js,
// match-invite.js, match-offers.js, match-result.js, match-moves.js, match-announce.js), each registered with
// Quadrille.part(name, mount): mount(page) returns {render(state, previous)} and is called after every change.
(function () {
  "use strict";
  const Tokens = window.QuadrilleTokens;
  const I18n = window.QuadrilleI18n;
  const Quadrille = (window.Quadrille = { renderers: {}, parts: {}, register, part, start });

  function register(name, renderer) { Quadrille.renderers[name] = renderer; }
  function part(name, mount) { Quadrille.parts[name] = mount; }
  const $ = (id) => document.getElementById(id);

  function start() {
    const root = $("match");
    const matchId = root.dataset.match;
    const embed = document.body.classList.contains("embed");
    let state = JSON.parse($("initial-state").textContent);
    const carried = /(?:^#|&)seat=([^&]+)/.exec(window.location.hash || "");
    if (carried) {
      // An embedded game opened in a frame without storage (static/js/embed.js): its token came in the fragment.
      Tokens.set(matchId, decodeURIComponent(carried[1]));
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    let token = Tokens.get(matchId);
    let mySeats = [];
    let presence = { online: [], spectators: 0, away: [] };
    let replay = null; // null while live, else {ply, view}
    let watched = false; // the first answer to `watch` has come

    const spec = Quadrille.renderers[state.game];
    // a seat's colour in the page's language (the STATE's seat_names are the engine's English words)
    const seatName = spec && spec.sides ? window.QuadrilleBoard.sideName : window.QuadrilleBoard.seatName;
    const label = (seat) => seatName(state.seat_names && state.seat_names[seat - 1])
      || (spec && spec.seatLabel ? spec.seatLabel(seat, state) : I18n.t("Player {number}", { number: seat }));
    const names = (seats) => new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(seats.map(label));
    // Naming the match lets nginx send every socket of this match to one process in a cluster (deploy/nginx.conf).
    const socket = io({ transports: ["websocket", "polling"], query: { match: matchId } });
    window.quadrilleSocket = socket; // for tests and the console

    let fade = null;
    const heard = []; // parts that follow the page's messages (the live region announces refusals)
    function message(text, kind) {
      for (const hear of heard) hear(text || "", kind);
      const box = $("message");
      box.textContent = text || "";
      box.className = "message" + (kind ? " " + kind : "");
      clearTimeout(fade);
      // Good news and notes fade after a while; an error stays until the next action says otherwise.
      if (kind === "good" || kind === "note") fade = setTimeout(() => { if (box.textContent === text) message(""); }, 6000);
    }
    // A refusal as a sentence: the engines give their reasons in lower case, to be quoted inside other messages
    // (a reason that starts with a cell's name, "a1 is taken", keeps it as the board writes it).
    function sentence(text) {
      if (!text) return "";
      const start = /^[a-z]+\d/.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
      return start + (/[.!?)]$/.test(text) ? "" : ".");
    }
    const failed = (ack) => message(sentence(ack.detail ? `${ack.reason} ${ack.detail}` : ack.reason), "error");

    function emit(event, payload, done) {
      socket.emit(event, { match: matchId, token, ...payload }, (ack) => {
        if (!ack.ok) failed(ack);
        if (done) done(ack);
      });
    }

    const ctx = {
      play(move) {
        if (replay) return message(I18n.t("You are looking at an earlier position; step to the end (Esc) to play."));
        socket.emit("move", { match: matchId, token, move, version: state.version }, (ack) => {
          // stale-version: the position moved on (a move sent again after a reconnection, whose first sending
          // went through; or another tab's move). The STATE that moved it redraws the board: nothing to say.
          if (!ack.ok && ack.error !== "stale-version") failed(ack);
          else message("");
        });
      },
      canPlay: () => !replay && state.turn != null && mySeats.includes(state.turn),
      mySeats: () => mySeats.slice(),
      state: () => state,
      message,
      emit,
    };
    // -- which way up the board is: the second seat's player sees it from their side; anyone may flip it ----
    // (remembered per match for this tab, so a reload keeps it)
    const FLIP_KEY = `quadrille.flip.${matchId}`;
    const session = (() => { try { return window.sessionStorage; } catch (e) { return null; } })();
    let flipToggled = !!(session && session.getItem(FLIP_KEY) === "1");
    const ownSide = () => state.players === 2 && mySeats.length === 1 && mySeats[0] === 2;
    ctx.flipped = () => ownSide() !== flipToggled;
    function toggleFlip() {
      flipToggled = !flipToggled;
      if (session) session.setItem(FLIP_KEY, flipToggled ? "1" : "0");
      render();
    }
    // Move i of a STATE in words for people: the server names it the same for every viewer (STATE's
    // move_names, games/notation.py); the API and the record keep the move strings.
    const moveName = (st, i) => window.QuadrilleBoard.moveName((st.move_names && st.move_names[i]) || st.moves[i]);
    const renderer = spec ? spec.mount($("board-area"), ctx) : null;

    // What the parts see of the page. `role`: "player" (some seats), "hotseat" (every seat of a match of
    // several: one screen, or a demo) or "spectator".
    const page = {
      root, matchId, embed, socket, ctx, label, names, message, emit, failed, moveName,
      spec: spec || {},
      flipped: () => ctx.flipped(),
      toggleFlip,
      state: () => state,
      mySeats: () => mySeats.slice(),
      token: () => token,
      presence: () => presence, answered: () => watched, // answered: the server said which seats this page holds
      replaying: () => !!replay,
      replayPly: () => (wanted !== null ? wanted : replay ? replay.ply : null),
      shownPly: () => (replay ? replay.ply : null), // the earlier position on the board, if one is
      stepTo: (ply) => stepTo(ply),
      role() {
        if (!mySeats.length) return "spectator";
        return mySeats.length === state.seats.length && state.seats.length > 1 ? "hotseat" : "player";
      },
      myTurn: () => state.turn != null && mySeats.includes(state.turn) && page.role() === "player",
      setToken(next, seats) { token = next; Tokens.set(matchId, next); if (seats) mySeats = seats; },
      watch,
      render,
      onMessage: (hear) => heard.push(hear),
      go(match) { window.location.href = `${embed ? "/embed/" : "/m/"}${match}`; },
    };
    Quadrille.page = page;

    // -- talking to the server ------------------------------------------------
    function watch() {
      socket.emit("watch", { match: matchId, token }, (ack) => {
        if (!ack.ok) return failed(ack);
        mySeats = ack.you.seats;
        presence = ack.presence;
        const first = !watched;
        watched = true;
        // Not forced: a move broadcast after this socket joined the room may have come before this answer, and
        // versions only grow (a take-back is an event too), so the newer of the two stands.
        applyState(ack.state);
        for (const p of parts) if (p.watched) p.watched(first);
      });
    }

    // Moves are shown one at a time: a STATE that adds another player's move waits until the one before it has
    // been on the board for STEP_MS (its animation), so a computer's quick reply, or a Towers turn of several
    // actions sent as several STATEs, plays out step by step instead of landing in one frame. A page far behind (a
    // reconnect, a fast bot) jumps to the newest. The STATEs themselves are the server's, drawn as they are.
    const STEP_MS = 260;
    const MAX_BEHIND = 4;
    const queue = [];
    let pacedUntil = 0, pacer = null;
    function applyState(next, force) {
      if (force) {
        queue.length = 0;
        clearTimeout(pacer);
        pacer = null;
        show(next, true);
        return;
      }
      queue.push(next);
      pump();
    }
    function pump() {
      if (pacer) return;
      while (queue.length) {
        if (queue.length > MAX_BEHIND) queue.splice(0, queue.length - 1);
        const next = queue[0];
        const wait = pacedUntil - Date.now();
        if (next.moves.length > state.moves.length && wait > 0 && !ownMove(next)) {
          pacer = setTimeout(() => { pacer = null; pump(); }, wait);
          return;
        }
        queue.shift();
        if (show(next)) pacedUntil = Date.now() + STEP_MS;
      }
    }
    // A move of this page's own seats is drawn at once (a quick player's next move must not wait, nor be sent
    // with the version of a position still queued); the others' moves (the computer's actions) are paced.
    const ownMove = (next) => {
      const mover = next.movers && next.movers[next.moves.length - 1];
      return mover != null && mySeats.includes(mover) && !state.seats.some((s) => s.seat === mover && s.kind === "ai");
    };
    page.settled = () => !queue.length; // for tests: every STATE received has been drawn
    function show(next, force) {
      if (!force && next.version < state.version) return false; // an older state overtaken by a newer one
      const previous = state;
      state = next;
      if (replay && replay.ply > state.moves.length) replay = null;
      render(previous);
      return state.moves.length > previous.moves.length;
    }

    socket.on("connect", watch);
    socket.on("state", (s) => applyState(s));
    socket.on("presence", (p) => {
      presence = p;
      for (const q of parts) if (q.presence) q.presence(p);
    });
    // Every player agreed to a rematch: the new match's seats belong to the same players' tokens, so each
    // page carries its token over; spectators follow to watch.
    socket.on("rematch", (r) => {
      if (token && mySeats.length) Tokens.set(r.match, token);
      page.go(r.match);
    });
    socket.on("disconnect", () => message(I18n.t("Connection lost; reconnecting…")));
    socket.io.on("reconnect", () => message(""));

    // -- drawing --------------------------------------------------------------
    function render(previous) {
      const live = !replay;
      if (renderer) renderer.draw(live ? state.view : replay.view, state, live);
      renderPly();
      for (const p of parts) if (p.render) p.render(state, previous || state);
    }

    // The move list itself is a part (match-moves.js); the core says where the replay stands.
    function renderPly() {
      $("ply-label").textContent = replay
        ? I18n.t("move {ply} of {count}", { ply: replay.ply, count: state.moves.length }) : I18n.t("live");
      // What the board shows (the label may already name a position still on its way from the server).
      $("ply-label").dataset.shown = replay ? String(replay.ply) : "live";
      const flip = $("flip");
      if (flip) {
        flip.hidden = !(spec && spec.flips);
        flip.setAttribute("aria-pressed", String(ctx.flipped()));
      }
    }

    // -- stepping through the game ---------------------------------------------
    // Positions come from the server. Held keys ask for one at most every STEP_INTERVAL ms (the latest
    // wins), which keeps a fast reader well inside the socket's budget.
    const STEP_INTERVAL = 120;
    let wanted = null, fetching = false, lastFetch = 0, stepSeq = 0, liveSeq = 0;
    function stepTo(ply) {
      const last = state.moves.length;
      ply = Math.max(0, Math.min(ply, last));
      stepSeq += 1;
      if (ply === last) { wanted = null; replay = null; liveSeq = stepSeq; render(); return; }
      wanted = ply;
      $("ply-label").textContent = I18n.t("move {ply} of {count}", { ply, count: last });
      fetchWanted();
    }
    function fetchWanted() {
      if (fetching || wanted === null) return;
      const wait = lastFetch + STEP_INTERVAL - Date.now();
      fetching = true;
      if (wait > 0) { setTimeout(() => { fetching = false; fetchWanted(); }, wait); return; }
      const ply = wanted, seq = stepSeq;
      lastFetch = Date.now();
      socket.emit("position", { match: matchId, ply }, (ack) => {
        fetching = false;
        if (wanted === ply) wanted = null;
        if (!ack.ok) return failed(ack);
        if (seq > liveSeq) { replay = { ply: ack.ply, view: ack.view }; render(); }
        fetchWanted();
      });
    }
    const currentPly = () => (wanted !== null ? wanted : replay ? replay.ply : state.moves.length);
    $("step-first").addEventListener("click", () => stepTo(0));
    $("step-back").addEventListener("click", () => stepTo(currentPly() - 1));
    $("step-forward").addEventListener("click", () => stepTo(currentPly() + 1));
    $("step-last").addEventListener("click", () => stepTo(state.moves.length));
    if ($("flip")) $("flip").addEventListener("click", toggleFlip);
    $("continue-here").addEventListener("click", () => {
      const ply = currentPly();
      const later = state.moves.length - ply;
      page.confirm(I18n.n("Continue from move {ply}? The later move is discarded.",
        "Continue from move {ply}? The {count} later moves are discarded.", later, { ply, count: later }),
        I18n.t("Continue from here"), () => {
          stepSeq += 1;
          wanted = null; replay = null; liveSeq = stepSeq; // a position still on its way must not bring it back
          emit("rewind", { to: ply });
        });
    });

    // -- keys: one map for every game (the keys dialog lists it) ---------------------------------------------
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, select, textarea")) return;
      if (document.querySelector("dialog[open]")) return; // a dialog handles its own keys (Esc closes it)
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      for (const p of parts) if (p.key && p.key(event)) { event.preventDefault(); return; }
      if (replay || wanted !== null) {
        if (event.key === "ArrowLeft" || event.key === "[") stepTo(currentPly() - 1);
        else if (event.key === "ArrowRight" || event.key === "]") stepTo(currentPly() + 1);
        else if (event.key === "Escape") stepTo(state.moves.length);
        else return;
        event.preventDefault();
        return;
      }
      if (renderer && renderer.key && renderer.key(event)) { event.preventDefault(); return; }
      const k = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (k === "p" && !$("pause").hidden) page.togglePause(); // match-status.js
      else if (k === "r") {
        if (state.outcome && mySeats.length && Quadrille.playAgain) Quadrille.playAgain(page);
        else page.restart(); // match-actions.js
      } else if (k === "n") page.newGame();
      else if (k === "[") stepTo(currentPly() - 1);
      else if (k === "]") stepTo(currentPly() + 1);
      else if (k === "Escape") page.leave();
      else return;
      event.preventDefault();
    });

    // In an embed the board and its controls must fit the frame: a game whose board, bars and buttons are
    // taller than the room left is scaled down as a whole (clicks and drags follow the transform).
    function fit() {
      if (!embed) return;
      const area = $("board-area");
      const content = area.firstElementChild;
      if (!content) return;
      content.style.transform = "";
      const room = area.clientHeight;
      const need = content.scrollHeight;
      const scale = need > room + 1 ? Math.max(room / need, 0.3) : 1;
      content.style.transformOrigin = "top center";
      content.style.transform = scale < 1 ? `scale(${scale})` : "";
      area.classList.toggle("scaled", scale < 1);
    }
    if (embed && window.ResizeObserver) new ResizeObserver(() => fit()).observe($("board-area"));
    const drawn = render;
    render = (previous) => { drawn(previous); if (embed) requestAnimationFrame(fit); };
    page.render = render;

    const parts = Object.values(Quadrille.parts).map((mount) => mount(page) || {});
    render();
  }
})();
