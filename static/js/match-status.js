// The match page's status and controls: the status line ("Your turn"), the seats and who is watching, and which
// buttons show (take back, resign, rematch, start, the computer's pause, hand-over and reclaim). A part of the
// match page (match.js): it draws from the STATE and presence after every change, and decides nothing.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  // The computer's levels in the new-game dialog's words (quadrille/catalog.py LEVEL_WORDS), by the STATE's level id.
  const LEVELS = {
    1: I18n.t("Easy"), 2: I18n.t("Medium"), 3: I18n.t("Hard"), classic: I18n.t("The original's opponent (AI-1)"),
    "classic-1": I18n.t("The original's level 1"), "classic-2": I18n.t("The original's level 2"),
    "classic-3": I18n.t("The original's level 3"), random: I18n.t("Random moves"),
  };
  const levelName = (seat) => LEVELS[seat.level] || seat.level_name || String(seat.level);

  window.Quadrille.part("status", (page) => {
    const Quadrille = window.Quadrille;
    const { root, label, names, emit, message, embed } = page;

    function statusLine() {
      const state = page.state();
      const role = page.role();
      const shown = page.shownPly();
      if (shown !== null && page.shownStatus) return page.shownStatus(shown); // an earlier position (match-moves.js)
      if (state.outcome) return Quadrille.resultTitle ? Quadrille.resultTitle(page) : I18n.t("Game over");
      if (!state.started) {
        if (state.creator_starts) return I18n.t("Waiting for players; the creator starts the match");
        return role === "spectator" ? I18n.t("Waiting for a second player") : I18n.t("Waiting for your friend");
      }
      if (state.turn == null) return "";
      const seat = state.seats.find((s) => s.seat === state.turn);
      const player = label(state.turn);
      if (seat && seat.kind === "ai") {
        return state.paused ? I18n.t("{player} (computer) is paused", { player })
          : I18n.t("{player} (computer) is thinking…", { player });
      }
      if (page.myTurn()) return I18n.t("Your turn");
      return role === "player" ? I18n.t("{player}'s turn: waiting for their move", { player })
        : I18n.t("{player}'s turn", { player });
    }

    function renderStatus() {
      const state = page.state(), mySeats = page.mySeats(), presence = page.presence();
      const role = page.role();
      const status = $("status");
      status.textContent = statusLine();
      status.classList.toggle("your-turn", page.myTurn() && !state.outcome && !page.replaying());
      root.dataset.turn = state.turn == null ? "" : state.turn;
      root.dataset.version = state.version;
      root.dataset.seats = mySeats.join(",");
      root.dataset.role = role;

      const seats = $("seats");
      seats.innerHTML = "";
      for (const s of state.seats) {
        const li = document.createElement("li");
        li.dataset.seat = s.seat;
        const online = s.kind === "ai" || presence.online.includes(s.seat); // a computer is never offline
        li.className = "seat seat-" + s.seat + (online ? " online" : "") + (state.turn === s.seat ? " to-move" : "");
        li.append(I18n.t("{player}: ", { player: label(s.seat) }));
        if (s.kind === "ai") li.append(I18n.t("computer ({level})", { level: levelName(s) })); // "Easy"
        else if (s.taken) li.append(window.QuadrilleNames.seat(s, I18n.t("taken")));
        else li.append(I18n.t("free"));
        const rating = window.QuadrilleRatings.beside(state, s.seat); // a rated match (match-ratings.js)
        if (rating) li.append(" ", rating);
        if (mySeats.includes(s.seat) && s.kind !== "ai") li.append(" ", I18n.t("(you)"));
        seats.appendChild(li);
      }
      const n = presence.spectators;
      const others = n - (role === "spectator" ? 1 : 0);
      const crowd = others <= 0 ? "" : role === "spectator"
        ? I18n.n("{count} other person watching", "{count} other people watching", others, { count: others })
        : I18n.n("{count} person watching", "{count} people watching", others, { count: others });
      const you = role === "spectator" ? I18n.t("You are watching.") : role === "hotseat" && state.mode === "local"
        ? I18n.t("You play every side.") : "";
      $("presence").textContent = [you, crowd].filter(Boolean).join(" ");
    }

    function renderControls() {
      const state = page.state(), mySeats = page.mySeats();
      const local = state.mode !== "online" && mySeats.length > 0;
      const online = state.mode === "online" && mySeats.length > 0;
      const playing = !state.outcome;
      for (const b of document.querySelectorAll("[data-local]")) b.hidden = !local;
      for (const b of document.querySelectorAll("[data-online]")) b.hidden = !online;
      $("takeback").hidden = !local; // after the end too: take back the move that lost, against the computer
      $("takeback").disabled = !state.moves.length;
      $("restart").disabled = !state.moves.length;
      $("resign").hidden = !state.resignable || !mySeats.length; // the server decides (quadrille/matches/resigning.py)
      $("rematch").hidden = !online || playing;
      $("continue-here").hidden = !(local && page.replaying());
      $("start-box").hidden = !(state.started === false && mySeats.includes(1) && state.creator_starts);
      $("new-game").hidden = !(local || !embed);
      renderComputerControls();
    }

    function renderComputerControls() {
      const state = page.state(), mySeats = page.mySeats(), presence = page.presence();
      const computerSeats = state.seats.filter((s) => s.kind === "ai").map((s) => s.seat);
      const absent = state.seats.filter((s) => s.kind === "human" && s.taken && !mySeats.includes(s.seat)
        && !presence.online.includes(s.seat)).map((s) => s.seat);
      const playing = mySeats.length > 0 && !state.outcome;
      const handover = playing && state.started && state.mode === "online" && absent.length > 0 && $("handover-level")
        && !state.clock && !(presence.away || []).some((e) => e.rule === "rated-start"); // else as absence.py allows
      const reclaim = playing && mySeats.some((s) => computerSeats.includes(s)) && state.mode === "online";
      const clocked = state.clock && state.seats.some((s) => s.kind === "human" && s.taken); // a clock does not stop
      const pause = playing && computerSeats.length > 0 && state.mode === "ai" && !clocked; // live only: gone once it ends
      $("computer-box").hidden = !(handover || reclaim || pause);
      $("pause").hidden = !pause;
      $("pause").textContent = state.paused ? I18n.t("Resume the computer") : I18n.t("Pause the computer");
      $("handover").hidden = !handover;
      $("reclaim").hidden = !reclaim;
      const select = $("handover-seat");
      if (handover && select.dataset.seats !== absent.join(",")) {
        select.dataset.seats = absent.join(",");
        select.innerHTML = "";
        for (const s of absent) select.add(new Option(label(s), s));
      }
    }

    const levelValue = (raw) => (/^\d+$/.test(raw) ? Number(raw) : raw);
    page.levelValue = levelValue;
    page.togglePause = () => { if (!$("pause").hidden) emit("pause", { paused: !page.state().paused }); };
    $("pause").addEventListener("click", page.togglePause);
    $("reclaim").addEventListener("click", () => emit("reclaim", {}));
    page.handOver = (seat) => emit("computer", {
      seat, level: $("handover-level") ? levelValue($("handover-level").value) : 1,
    }, (ack) => { if (ack.ok && ack.waiting_for) message(I18n.t("Waiting for {players} to agree.", { players: names(ack.waiting_for) })); });
    $("handover-go").addEventListener("click", () => page.handOver(Number($("handover-seat").value)));

    return {
      render() { renderStatus(); renderControls(); },
      presence() { renderStatus(); renderComputerControls(); },
    };
  });
})();
