// The move list: a row per round, a column per player (one per seat in Gamma), each turn's moves in words for
// people (the STATE's move_names: "c2→c3", "c11", "f7", the same for every viewer), the newest in view. A move is a button: clicking it, or
// Enter on it, shows that position (the core's stepTo); inside the list the arrows, Home and End step too.
// Who played each move comes from the STATE's `movers` (null for an imported record's moves: guessed by turns).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;

  window.Quadrille.part("moves", (page) => {
    // a seat as its renderer calls it, mark included (Gamma's "Blue (A)"), else the page's name for it
    const who = (seat) => (page.spec.seatLabel ? page.spec.seatLabel(seat, page.state()) : page.label(seat));
    const box = document.getElementById("move-list");
    let drawn = [];        // the moves drawn, to append only what is new
    let table = null, body = null;
    let row = null, cell = null, lastMover = null, lastColumn = -1, round = 0;
    let players = 0;

    function seatsOf(state) {
      // the columns: every seat of the board, in seat order
      const n = state.players || state.seats.length || 2;
      return Array.from({ length: n }, (_, k) => k + 1);
    }

    function reset(state) {
      players = seatsOf(state).length;
      box.innerHTML = "";
      box.style.setProperty("--players", players);
      table = document.createElement("table");
      table.className = "moves-table";
      const head = table.createTHead().insertRow();
      const corner = document.createElement("th");
      corner.scope = "col";
      corner.innerHTML = `<span class="sr-only">${I18n.t("Round")}</span>`;
      head.appendChild(corner);
      for (const seat of seatsOf(state)) {
        const th = document.createElement("th");
        th.scope = "col";
        th.className = `seat-col seat-${seat}`;
        th.textContent = who(seat);
        head.appendChild(th);
      }
      body = table.createTBody();
      box.appendChild(table);
      drawn = [];
      row = null; cell = null; lastMover = null; lastColumn = -1; round = 0;
    }

    function newRow() {
      round += 1;
      row = body.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = round;
      row.appendChild(th);
      for (let k = 0; k < players; k++) row.insertCell().className = `turn seat-${k + 1}`;
    }

    // One move more: a new turn cell when the mover changes, a new row when the turn goes back round.
    function append(state, ply, move, mover) {
      const column = mover - 1;
      if (mover !== lastMover || !cell) {
        if (!row || column <= lastColumn) newRow();
        cell = row.cells[column + 1];
        lastColumn = column;
        lastMover = mover;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mv";
      b.dataset.ply = ply;
      b.tabIndex = -1;
      b.textContent = page.moveName(state, ply - 1);
      b.title = I18n.t("Move {ply}: {move}", { ply, move });
      b.setAttribute("aria-label", I18n.t("Move {ply}, {player}: {move}", { ply, player: who(mover), move: b.textContent }));
      cell.appendChild(b);
    }

    function moverOf(state, i, previous) {
      const m = state.movers && state.movers[i];
      if (m) return m;
      return previous ? (previous % players) + 1 : 1; // an imported move: the turn passes round
    }

    function render(state) {
      const moves = state.moves;
      const same = drawn.length <= moves.length && drawn.every((m, i) => m === moves[i])
        && table && players === seatsOf(state).length;
      if (!same) reset(state);
      let previous = lastMover;
      for (let i = drawn.length; i < moves.length; i++) {
        const mover = moverOf(state, i, previous);
        append(state, i + 1, moves[i], mover);
        previous = mover;
      }
      drawn = moves.slice();
      box.classList.toggle("empty", !moves.length);
      mark();
    }

    // The position shown: the live one (the newest move) or the one stepped to.
    function mark() {
      const ply = page.replayPly();
      const current = ply === null ? drawn.length : ply;
      let focusable = null;
      for (const b of box.querySelectorAll("button.mv.current")) b.classList.remove("current");
      for (const b of box.querySelectorAll("button.mv[aria-current]")) b.removeAttribute("aria-current");
      const at = current > 0 ? box.querySelector(`button.mv[data-ply="${current}"]`) : null;
      if (at) {
        at.classList.add("current");
        at.setAttribute("aria-current", "step");
        focusable = at;
      }
      const had = box.contains(document.activeElement);
      for (const b of box.querySelectorAll('button.mv[tabindex="0"]')) if (b !== focusable) b.tabIndex = -1;
      const target = focusable || box.querySelector("button.mv");
      if (target) target.tabIndex = 0;
      if (ply === null) box.scrollTop = box.scrollHeight;
      else if (at) scrollInto(at);
      if (had && target && document.activeElement !== target) target.focus({ preventScroll: true });
    }

    // Scroll the list (only the list, never the page) so that the move is in view below the sticky header: a
    // move of the first round scrolls to the very top (nothing of row 1 under the header), any other stops at
    // the header's drawn bottom edge (the list's border included), and at the list's inner bottom edge.
    function scrollInto(el) {
      if (el.closest("tr") === body.rows[0]) { box.scrollTop = 0; return; }
      const r = el.getBoundingClientRect();
      const head = table.tHead && table.tHead.querySelector("th"); // a sticky cell: its rect is where it is drawn
      const top = head ? head.getBoundingClientRect().bottom : box.getBoundingClientRect().top + box.clientTop;
      const bottom = box.getBoundingClientRect().top + box.clientTop + box.clientHeight;
      if (r.top < top) box.scrollTop -= Math.ceil(top - r.top);
      else if (r.bottom > bottom) box.scrollTop += Math.ceil(r.bottom - bottom);
    }

    // The status line while an earlier position is shown says which, not whose turn it is in the game (save
    // that it is the player's own: a clock may be running).
    page.shownStatus = (ply) => {
      const state = page.state();
      const yours = page.myTurn() && !state.outcome;
      if (!ply) return yours ? I18n.t("Showing the start position (your turn in the game)") : I18n.t("Showing the start position");
      const mover = state.movers && state.movers[ply - 1];
      const name = page.moveName(state, ply - 1);
      const move = mover ? I18n.t("{player}, {move}", { player: who(mover), move: name }) : name;
      const count = state.moves.length;
      return yours ? I18n.t("Showing move {ply} of {count}: {move} (your turn in the game)", { ply, count, move })
        : I18n.t("Showing move {ply} of {count}: {move}", { ply, count, move });
    };

    box.addEventListener("click", (event) => {
      const b = event.target.closest("button.mv");
      if (!b) return;
      page.stepTo(Number(b.dataset.ply));
    });

    // Keys inside the list: the arrows and Home/End step through the game (the focus follows the move shown).
    function key(event) {
      if (!box.contains(document.activeElement)) return false;
      const last = drawn.length;
      const ply = page.replayPly();
      const now = ply === null ? last : ply;
      const k = event.key;
      let to = null;
      if (k === "ArrowLeft" || k === "ArrowUp") to = now - 1;
      else if (k === "ArrowRight" || k === "ArrowDown") to = now + 1;
      else if (k === "Home") to = 0;
      else if (k === "End") to = last;
      if (to === null) return false;
      page.stepTo(Math.max(0, Math.min(last, to)));
      return true;
    }

    return { render, key };
  });
})();
