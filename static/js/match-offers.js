// Offers by consent and players who leave, in online games: the buttons that offer a take-back or a draw or
// abort, the bar that shows another player's offer (Accept / Decline), and the bar that says who left, with
// the server's countdown, then the choices: claim victory, call it a draw, let the computer play, keep waiting.
// What being away allows follows the clock (each `away` entry's `rule`, absence.py): nothing in a game of days
// per move (no bar: the seat's presence dot only), an abort in a rated game before both moved, else a claim
// once the countdown ends. The server decides every one of these (offers.py, absence.py); this only shows them.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  // `theirs(players, count)`: count players offer it
  const WORDS = {
    takeback: { offer: I18n.t("Offer take-back"),
      theirs: (players, count) => I18n.n("{players} asks to take back their last move.",
        "{players} ask to take back their last move.", count, { players }),
      mine: I18n.t("You asked to take back your last move; waiting for the answer."),
      declined: I18n.t("Your take-back was declined.") },
    draw: { offer: I18n.t("Offer draw"),
      theirs: (players, count) => I18n.n("{players} offers a draw.", "{players} offer a draw.", count, { players }),
      mine: I18n.t("You offered a draw; it stands until your opponent answers or moves."),
      declined: I18n.t("Your draw offer was declined.") },
    rematch: { offer: I18n.t("Rematch"),
      theirs: (players, count) => I18n.n("{players} offers a rematch.", "{players} offer a rematch.", count, { players }),
      mine: I18n.t("You offered a rematch; waiting for the answer."),
      declined: I18n.t("Your rematch offer was declined.") },
  };

  function button(text, onClick, primary) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (primary) b.className = "primary";
    b.addEventListener("click", onClick);
    return b;
  }

  window.Quadrille.part("offers", (page) => {
    let away = [];           // [{seat, seconds, claimable_in, at}] from the latest STATE or presence
    let waitingOn = new Set(); // seats whose departure the player chose to keep waiting for
    let tick = null;
    let backTimer = null;

    // -- offering -----------------------------------------------------------------------------------------
    const offer = (kind) => page.emit("offer", { offer: kind }, (ack) => {
      if (ack.ok && ack.match) { window.QuadrilleTokens.set(ack.match, ack.token); page.go(ack.match); }
    });
    $("offer-takeback").addEventListener("click", () => offer("takeback"));
    $("offer-draw").addEventListener("click", () => offer("draw"));
    $("abort").addEventListener("click", () => page.confirm(I18n.t("Abort this game? It ends with no result."),
      I18n.t("Abort"), () => page.emit("abort", {}), I18n.t("Keep playing")));

    function renderButtons(state) {
      const online = state.mode === "online" && page.role() === "player";
      const live = online && !state.outcome && state.started;
      const declined = state.declined || {};
      const offered = state.offers || {};
      const mine = (kind) => (offered[kind] || []).some((s) => page.mySeats().includes(s));
      const refused = (kind) => (declined[kind] || []).some((s) => page.mySeats().includes(s));
      $("offer-takeback").hidden = !live;
      $("offer-takeback").disabled = mine("takeback") || refused("takeback") || !state.moves.length;
      $("offer-draw").hidden = !live || !state.draws || state.players !== 2;
      $("offer-draw").disabled = mine("draw") || refused("draw") || !page.myTurn();
      $("offer-draw").title = page.myTurn() ? "" : I18n.t("A draw is offered on your own turn");
      $("abort").hidden = !(online && !state.outcome && state.abortable && state.started);
      $("rematch").disabled = mine("rematch") || refused("rematch");
    }

    // -- another player's offer ------------------------------------------------------------------------------
    function renderOfferBar(state, previous) {
      const bar = $("offer-bar");
      bar.innerHTML = "";
      const offers = state.offers || {};
      let shown = false;
      if (page.role() === "player") {
        for (const kind of state.outcome ? ["rematch"] : ["takeback", "draw"]) {
          const seats = offers[kind] || [];
          if (!seats.length) continue;
          const iOffer = seats.some((s) => page.mySeats().includes(s));
          const text = document.createElement("span");
          text.textContent = iOffer ? WORDS[kind].mine : WORDS[kind].theirs(page.names(seats), seats.length);
          bar.appendChild(text);
          if (!iOffer) {
            bar.append(
              button(I18n.t("Accept"), () => (kind === "rematch" ? page.offerRematch() : page.emit("accept", { offer: kind })), true),
              button(I18n.t("Decline"), () => page.emit("decline", { offer: kind })));
          }
          shown = true;
          break;
        }
      }
      bar.hidden = !shown;
      // A declined offer of mine: say so, once, where the player is looking.
      const before = (previous && previous.declined) || {};
      for (const kind of Object.keys(state.declined || {})) {
        const now = state.declined[kind].filter((s) => page.mySeats().includes(s));
        if (now.length && !(before[kind] || []).some((s) => now.includes(s))) page.message(WORDS[kind].declined, "note");
      }
    }

    // -- a player who left ------------------------------------------------------------------------------------
    function setAway(entries) {
      const now = Date.now();
      // a seat of the days-per-move rule was never announced as gone: its return is not news either
      const was = new Set(away.filter((e) => e.rule !== "correspondence").map((e) => e.seat));
      // A page with a token draws the match once before the server says its seats: its player is not "away" to
      // herself meanwhile (nor "back" a moment later).
      const known = page.answered() || !page.token();
      away = (known ? entries || [] : []).filter((e) => !page.mySeats().includes(e.seat))
        .map((e) => ({ ...e, at: now }));
      // Never "Red is back." to Red: a page that learns its seats after its first drawing saw itself away.
      const back = [...was].filter((s) => !away.some((e) => e.seat === s) && !page.mySeats().includes(s));
      const state = page.state();
      if (back.length && !state.outcome && page.role() !== "hotseat") {
        page.message(I18n.n("{players} is back.", "{players} are back.", back.length, { players: page.names(back) }), "good");
        clearTimeout(backTimer);
        backTimer = setTimeout(() => page.message(""), 4000);
        for (const s of back) { waitingOn.delete(s); announced.delete(s); }
      }
      renderAway();
    }

    function remaining(entry) {
      if (entry.claimable_in == null) return Infinity; // no claim, however long they stay away
      return Math.max(0, entry.claimable_in - (Date.now() - entry.at) / 1000);
    }
    // The bar speaks of the seats whose absence allows something: in a game of days per move, nothing.
    const alarming = () => away.filter((e) => e.rule !== "correspondence");

    function clock(seconds) {
      const s = Math.ceil(seconds);
      return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    }

    function renderAway() {
      const bar = $("away");
      const state = page.state();
      const shown = alarming();
      const relevant = state.mode === "online" && !state.outcome && state.started && shown.length > 0;
      clearInterval(tick);
      tick = null;
      if (!relevant) { bar.hidden = true; bar.innerHTML = ""; return; }
      bar.hidden = false;
      bar.innerHTML = "";
      const player = page.role() === "player";
      for (const entry of shown) {
        const left = remaining(entry);
        const line = document.createElement("span");
        line.className = "away-text";
        line.dataset.seat = entry.seat;
        line.dataset.rule = entry.rule || "disconnect";
        line.textContent = awayWords(entry, left, player);
        bar.appendChild(line);
        announceOnce(entry, left, line.textContent, player);
        if (player && entry.rule === "rated-start" && state.abortable) bar.appendChild(abortChoice());
        else if (player && left <= 0 && !waitingOn.has(entry.seat)) bar.appendChild(choices(state, entry.seat));
      }
      if (shown.some((e) => remaining(e) > 0 && remaining(e) < Infinity)) tick = setInterval(renderAway, 1000);
    }

    // What the bar says of one away seat, by the rule its clock gives (the new-game dialog's words: "Real time").
    function awayWords(entry, left, player) {
      const who = page.label(entry.seat);
      if (entry.rule === "rated-start") {
        return player ? I18n.t("{player} is away before both sides have moved. A rated game is not won this way: you may abort it (no result).", { player: who })
          : I18n.t("{player} is away before both sides have moved. A rated game is not won this way.", { player: who });
      }
      const clockRuns = entry.rule === "realtime" ? " " + I18n.t("The clocks do not stop.") : "";
      if (left > 0) {
        return I18n.t("{player} left the game.", { player: who }) + clockRuns + " " + (player
          ? I18n.t("If they are not back in {time}, you may claim the game.", { time: clock(left) })
          : I18n.t("They have {time} to come back.", { time: clock(left) }));
      }
      const time = clock(entry.seconds + (Date.now() - entry.at) / 1000);
      return I18n.t("{player} left the game {time} ago.", { player: who, time }) + clockRuns;
    }

    // A screen reader hears the departure once, and once more when the player may decide (claim or abort).
    const announced = new Map(); // seat -> "left" | "decide"
    function announceOnce(entry, left, text, player) {
      const stage = player && (left <= 0 || entry.rule === "rated-start") ? "decide" : "left";
      if (announced.get(entry.seat) === stage || !page.announce) return;
      announced.set(entry.seat, stage);
      page.announce(stage === "decide" && entry.rule !== "rated-start"
        ? `${text} ${I18n.t("You may claim the game now.")}` : text);
    }

    function abortChoice() {
      const box = document.createElement("span");
      box.className = "away-actions";
      box.appendChild(button(I18n.t("Abort"), () => $("abort").click(), true));
      return box;
    }

    function choices(state, seat) {
      const box = document.createElement("span");
      box.className = "away-actions";
      if (state.players === 2) {
        box.appendChild(button(I18n.t("Claim victory"), () => page.emit("timeout", { result: "win" }), true));
        if (state.draws) box.appendChild(button(I18n.t("Call it a draw"), () => page.emit("timeout", { result: "draw" })));
      }
      if ($("handover-level")) box.appendChild(button(I18n.t("Let the computer play"), () => page.handOver(seat)));
      box.appendChild(button(I18n.t("Keep waiting"), () => { waitingOn.add(seat); renderAway(); }));
      return box;
    }

    return {
      render(state, previous) {
        renderButtons(state);
        renderOfferBar(state, previous);
        setAway(state.away);
      },
      presence(p) { setAway(p.away); },
    };
  });
})();
