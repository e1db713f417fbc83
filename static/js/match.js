// The match page: one Socket.IO connection, the server's STATE, and a game renderer that draws it.
//
// The server holds the truth: this script never decides legality. It sends what the player
// did (a move string made by the game's renderer, or a match decision) and redraws whatever
// `state` the server sends back. Renderers register with Quadrille.register(name, renderer):
//   renderer.mount(boardArea, ctx) -> { draw(view, state, live), key(event) -> handled? }
//   renderer.seatLabel(seat, state) -> "Blue", "Red", ...
(function () {
  "use strict";
  const Tokens = window.QuadrilleTokens;
  const Quadrille = (window.Quadrille = { renderers: {}, register, start });

  function register(name, renderer) { Quadrille.renderers[name] = renderer; }
  const $ = (id) => document.getElementById(id);

  function start() {
    const root = $("match");
    const matchId = root.dataset.match;
    const embed = document.body.classList.contains("embed");
    let state = JSON.parse($("initial-state").textContent);
    if ($("initial-token")) {
      // A new game made for an iframe: keep its token in the page, and give the frame a reloadable address.
      Tokens.set(matchId, JSON.parse($("initial-token").textContent));
      history.replaceState(null, "", `/embed/${matchId}`);
    }
    let token = Tokens.get(matchId);
    let mySeats = [];
    let presence = { online: [], spectators: 0 };
    let replay = null; // null while live, else {ply, view}
    let claiming = false;

    const spec = Quadrille.renderers[state.game];
    const label = (seat) => (spec && spec.seatLabel ? spec.seatLabel(seat, state) : `Seat ${seat}`);
    const socket = io({ transports: ["websocket", "polling"] });
    window.quadrilleSocket = socket; // for tests and the console

    const ctx = {
      play(move) {
        if (replay) return message("You are looking at an earlier position; step to the end to play.");
        socket.emit("move", { match: matchId, token, move, version: state.version }, (ack) => {
          if (!ack.ok) message(ack.detail ? `${ack.reason}: ${ack.detail}` : ack.reason, "error");
          else message("");
        });
      },
      canPlay: () => !replay && state.turn != null && mySeats.includes(state.turn),
      mySeats: () => mySeats.slice(),
      state: () => state,
      message,
      emit: (event, payload, done) => socket.emit(event, { match: matchId, token, ...payload }, (ack) => {
        if (!ack.ok) message(ack.reason, "error");
        if (done) done(ack);
      }),
    };
    const renderer = spec ? spec.mount($("board-area"), ctx) : null;

    function message(text, kind) {
      const box = $("message");
      box.textContent = text || "";
      box.className = "message" + (kind ? " " + kind : "");
    }

    // -- talking to the server ------------------------------------------------
    function watch() {
      socket.emit("watch", { match: matchId, token }, (ack) => {
        if (!ack.ok) return message(ack.reason, "error");
        mySeats = ack.you.seats;
        presence = ack.presence;
        applyState(ack.state, true);
        maybeClaim();
      });
    }

    function maybeClaim() {
      // The share link is the invitation: whoever opens it first takes the free seat; later visitors watch.
      const free = state.seats.some((s) => !s.taken);
      if (mySeats.length || claiming || state.mode !== "online" || state.outcome || !free) return;
      claiming = true;
      socket.emit("claim", { match: matchId, player: Tokens.getName() || undefined }, (ack) => {
        claiming = false;
        if (!ack.ok) return render();
        token = ack.token;
        Tokens.set(matchId, token);
        watch();
      });
    }

    function applyState(next, force) {
      if (!force && next.version < state.version) return; // an older state overtaken by a newer one
      state = next;
      if (replay && replay.ply > state.moves.length) replay = null;
      render();
    }

    socket.on("connect", watch);
    socket.on("state", (s) => applyState(s));
    socket.on("presence", (p) => { presence = p; renderStatus(); renderComputerControls(); });
    // Every player agreed to a rematch: the new match's seats belong to the same players' tokens, so each
    // page carries its token over; spectators follow to watch.
    socket.on("rematch", (r) => {
      if (token && mySeats.length) Tokens.set(r.match, token);
      window.location.href = `${embed ? "/embed/" : "/m/"}${r.match}`;
    });
    socket.on("disconnect", () => message("Connection lost; reconnecting…"));
    socket.io.on("reconnect", () => message(""));

    // -- drawing --------------------------------------------------------------
    function render() {
      const live = !replay;
      if (renderer) renderer.draw(live ? state.view : replay.view, state, live);
      renderStatus();
      renderMoves();
      renderControls();
    }

    function outcomeText(outcome) {
      if (!outcome) return "";
      // Each game words its own endings; a resignation is the platform's.
      const why = (outcome.reason === "resigned" && "by resignation")
        || (spec && spec.reasonText && spec.reasonText(outcome.reason)) || outcome.reason;
      if (!outcome.winners.length) return `Draw (${why})`;
      return `${outcome.winners.map(label).join(" and ")} ${outcome.winners.length > 1 ? "win" : "wins"} (${why})`;
    }

    function renderStatus() {
      const who = mySeats.length === state.seats.length && state.seats.length > 1 ? "You play every side."
        : mySeats.length ? `You are ${mySeats.map(label).join(" and ")}.` : "You are watching.";
      let line;
      if (state.outcome) line = outcomeText(state.outcome);
      else if (!state.started) line = "Waiting for players; the creator starts the match";
      else if (state.turn != null) {
        const seat = state.seats.find((s) => s.seat === state.turn);
        if (seat && seat.kind === "ai") line = `${label(state.turn)} (computer) ${state.paused ? "is paused" : "is thinking…"}`;
        else line = `${label(state.turn)} to move` + (mySeats.includes(state.turn) && mySeats.length < state.seats.length ? ": your move" : "");
      }
      $("status").textContent = line ? `${line}. ${who}` : who;
      root.dataset.turn = state.turn == null ? "" : state.turn;
      root.dataset.version = state.version;
      root.dataset.seats = mySeats.join(",");

      const seats = $("seats");
      seats.innerHTML = "";
      for (const s of state.seats) {
        const li = document.createElement("li");
        li.dataset.seat = s.seat;
        li.className = "seat seat-" + s.seat + (presence.online.includes(s.seat) ? " online" : "") + (state.turn === s.seat ? " to-move" : "");
        const who = s.kind === "ai" ? `computer (${s.level})` : s.taken ? s.name || "taken" : "free";
        li.textContent = `${label(s.seat)}: ${who}${mySeats.includes(s.seat) && s.kind !== "ai" ? " (you)" : ""}`;
        seats.appendChild(li);
      }
      const n = presence.spectators;
      $("presence").textContent = n ? `${n} watching` : "";
      const result = $("result");
      result.hidden = !state.outcome;
      result.textContent = outcomeText(state.outcome);
    }

    function renderMoves() {
      const list = $("move-list");
      list.innerHTML = "";
      state.moves.forEach((m, i) => {
        const li = document.createElement("li");
        li.dataset.ply = i + 1;
        li.textContent = m;
        if (replay && replay.ply === i + 1) li.className = "current";
        li.addEventListener("click", () => stepTo(i + 1));
        list.appendChild(li);
      });
      if (!replay) list.scrollTop = list.scrollHeight;
      $("ply-label").textContent = replay ? `move ${replay.ply} of ${state.moves.length}` : "live";
    }

    function renderOffers() {
      const offered = (state.offers && state.offers.rematch) || [];
      const others = offered.filter((s) => !mySeats.includes(s));
      const mine = offered.some((s) => mySeats.includes(s));
      $("rematch").disabled = mine;
      if (others.length && !mine && mySeats.length && !dialog.open && shownOffer !== state.version) {
        shownOffer = state.version;
        ask(`${others.map(label).join(" and ")} ${others.length > 1 ? "offer" : "offers"} a rematch.`,
          [["Accept", offerRematch], ["Decline", () => ctx.emit("decline", { offer: "rematch" })]]);
      }
    }
    let shownOffer = null;

    function renderControls() {
      const local = state.mode !== "online" && mySeats.length > 0;
      const online = state.mode === "online" && mySeats.length > 0;
      for (const b of document.querySelectorAll("[data-local]")) b.hidden = !local;
      for (const b of document.querySelectorAll("[data-online]")) b.hidden = !online;
      $("takeback").disabled = !state.moves.length;
      $("restart").disabled = !state.moves.length;
      $("resign").hidden = !online || !!state.outcome || state.players !== 2;
      $("rematch").hidden = !online || !state.outcome;
      renderOffers();
      $("continue-here").hidden = !(local && replay);
      const startBox = $("start-box");
      startBox.hidden = !(state.started === false && mySeats.includes(1));
      renderComputerControls();
    }

    function renderComputerControls() {
      const computerSeats = state.seats.filter((s) => s.kind === "ai").map((s) => s.seat);
      const absent = state.seats.filter((s) => s.kind === "human" && s.taken && !mySeats.includes(s.seat)
        && !presence.online.includes(s.seat)).map((s) => s.seat);
      const playing = mySeats.length > 0 && !state.outcome;
      const handover = playing && state.mode === "online" && absent.length > 0 && $("handover-level");
      const reclaim = playing && mySeats.some((s) => computerSeats.includes(s)) && state.mode === "online";
      const pause = mySeats.length > 0 && computerSeats.length > 0 && state.mode === "ai";
      $("computer-box").hidden = !(handover || reclaim || pause);
      $("pause").hidden = !pause;
      $("pause").textContent = state.paused ? "Resume the computer" : "Pause the computer";
      $("handover").hidden = !handover;
      $("reclaim").hidden = !reclaim;
      const select = $("handover-seat");
      if (handover && select.dataset.seats !== absent.join(",")) {
        select.dataset.seats = absent.join(",");
        select.innerHTML = absent.map((s) => `<option value="${s}">${label(s)}</option>`).join("");
      }
    }
    const levelValue = (raw) => (/^\d+$/.test(raw) ? Number(raw) : raw);
    const togglePause = () => ctx.emit("pause", { paused: !state.paused });
    $("pause").addEventListener("click", togglePause);
    $("reclaim").addEventListener("click", () => ctx.emit("reclaim", {}));
    $("handover-go").addEventListener("click", () => ctx.emit("computer", {
      seat: Number($("handover-seat").value), level: levelValue($("handover-level").value),
    }, (ack) => { if (ack.ok && ack.waiting_for) message(`Waiting for ${ack.waiting_for.map(label).join(", ")} to agree.`); }));

    // -- stepping through the game ---------------------------------------------
    // Positions come from the server. Held arrow keys ask for one at most every STEP_INTERVAL ms (the
    // latest wins), which keeps a fast reader well inside the socket's budget.
    const STEP_INTERVAL = 120;
    let wanted = null, fetching = false, lastFetch = 0, stepSeq = 0, liveSeq = 0;
    function stepTo(ply) {
      const last = state.moves.length;
      ply = Math.max(0, Math.min(ply, last));
      stepSeq += 1;
      if (ply === last) { wanted = null; replay = null; liveSeq = stepSeq; render(); return; }
      wanted = ply;
      $("ply-label").textContent = `move ${ply} of ${last}`;
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
        if (!ack.ok) return message(ack.reason, "error");
        if (seq > liveSeq) { replay = { ply: ack.ply, view: ack.view }; render(); }
        fetchWanted();
      });
    }
    const currentPly = () => (wanted !== null ? wanted : replay ? replay.ply : state.moves.length);
    $("step-first").addEventListener("click", () => stepTo(0));
    $("step-back").addEventListener("click", () => stepTo(currentPly() - 1));
    $("step-forward").addEventListener("click", () => stepTo(currentPly() + 1));
    $("step-last").addEventListener("click", () => stepTo(state.moves.length));
    $("continue-here").addEventListener("click", () => {
      const ply = currentPly();
      stepSeq += 1;
      wanted = null; replay = null; liveSeq = stepSeq; // a position still on its way must not bring the replay back
      ctx.emit("rewind", { to: ply });
    });

    // -- match decisions ----------------------------------------------------------
    const restart = () => { if (state.moves.length) ctx.emit("rewind", { to: 0 }); };
    $("takeback").addEventListener("click", () => ctx.emit("takeback", {}));
    $("restart").addEventListener("click", restart);
    $("resign").addEventListener("click", () => ask("Resign this game?", [["Resign", () => ctx.emit("resign", {})], ["Keep playing", null]]));
    function offerRematch() {
      ctx.emit("rematch", {}, (ack) => {
        if (!ack.ok) return;
        if (ack.match) { Tokens.set(ack.match, ack.token); window.location.href = `${embed ? "/embed/" : "/m/"}${ack.match}`; }
        else message("Rematch offered; waiting for the other players.");
      });
    }
    $("rematch").addEventListener("click", offerRematch);
    $("start-match").addEventListener("click", () => ctx.emit("start", {}));
    if ($("copy-link")) {
      $("copy-link").addEventListener("click", async () => {
        const input = $("invite-link");
        try { await navigator.clipboard.writeText(input.value); }
        catch (e) { input.select(); document.execCommand("copy"); }
        message("Link copied: send it to your opponent.");
      });
    }
    if ($("fullscreen")) {
      $("fullscreen").addEventListener("click", () => {
        if (document.fullscreenElement) document.exitFullscreen();
        else root.requestFullscreen().catch(() => message("This frame may not go fullscreen."));
      });
    }
    $("import-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      try {
        const created = await window.QuadrilleFiles.importFile(file);
        window.location.href = `${embed ? "/embed/" : "/m/"}${created.match}`;
      } catch (error) {
        message(error.reason || "That file is not a saved match.", "error");
      }
    });

    // -- dialogs and keys ------------------------------------------------------------
    const dialog = $("dialog");
    function ask(text, choices) {
      $("dialog-text").textContent = text;
      const actions = $("dialog-actions");
      actions.innerHTML = "";
      for (const [labelText, action] of choices) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = labelText;
        b.addEventListener("click", () => { dialog.close(); if (action) action(); });
        actions.appendChild(b);
      }
      if (!dialog.open) dialog.showModal();
    }
    Quadrille.ask = ask;

    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, select, textarea")) return;
      if (dialog.open) return; // the dialog handles Escape itself
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (replay || wanted !== null) {
        if (event.key === "ArrowLeft") stepTo(currentPly() - 1);
        else if (event.key === "ArrowRight") stepTo(currentPly() + 1);
        else if (event.key === "Escape") stepTo(state.moves.length);
        else return;
        event.preventDefault();
        return;
      }
      if (renderer && renderer.key && renderer.key(event)) { event.preventDefault(); return; }
      if ((event.key === "p" || event.key === "P") && !$("pause").hidden) togglePause();
      else if (event.key === "r" || event.key === "R") {
        if (state.mode !== "online" && mySeats.length) restart();
        else if (state.outcome && mySeats.length) offerRematch();
      } else if (event.key === "Escape") {
        if (!embed) ask("Leave this match? It stays saved; you can come back with its link.",
          [["Leave", () => { window.location.href = "/"; }], ["Stay", null]]);
      } else return;
      event.preventDefault();
    });

    render();
  }
})();
