// Gamma renderer: draws the server's view (templates/board.html renders the same markup first) and
// turns clicks, taps and keys into move strings: "x,y", "gx,y" (a golden move) and "skip". The server decides
// legality: the green fields come from view.legal and view.golden, and a click anywhere is still sent, so the
// server can say why not.
//
// Keys follow the terminal game (`python -m games.gamma`, docs/games.md): the arrows move a cursor (y grows
// upwards, hard walls, and the cursor keeps its place between turns), space takes the field under the cursor,
// C skips. G switches the
// golden mode on (the fields a golden move may take turn green); in golden mode space, or G again while the
// cursor is in use, makes the golden move at the cursor, and a click makes it on the clicked field. Escape, or G
// while the cursor is not in use, leaves the golden mode.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const COLOURS = 16;
  const FIELD = /^g?(\d+),(\d+)$/;
  // A touch screen (no hover, a coarse pointer) has no keys to press: its texts name none (quadrille.css hides
  // the pages' .key-hint there too).
  const touchScreen = () => !!window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;

  // A player's mark (drawn in each owned field) and colour class: the same as the template's macros.
  const markOf = (seat) => (seat >= 1 && seat <= LETTERS.length ? LETTERS[seat - 1] : String(seat));
  const colourOf = (seat) => "o" + (((seat - 1) % COLOURS) + 1);
  // A player is called by their colour, as the server names the seats (state.seat_names: "Blue", "Orange", …),
  // with the letter drawn in their fields: "Blue (A)".
  let seatNames = [];
  const nameOf = (seat) => window.QuadrilleBoard.seatName(seatNames[seat - 1]) || I18n.t("Player {number}", { number: seat });
  const labelOf = (seat) => (seat <= LETTERS.length ? `${nameOf(seat)} (${markOf(seat)})` : nameOf(seat));
  const levelValue = (raw) => (/^\d+$/.test(raw) ? Number(raw) : raw);
  const Motion = window.QuadrilleMotion;
  const Board = window.QuadrilleBoard; // static/js/board/: the grid, the keyboard cursor, the one shape of targets

  // Field names for people: columns a, b, … z, aa, ab … from the left, rows 1, 2, 3 … from the bottom (y + 1),
  // in lower case so that they are not read as the players' letters.
  function column(x) {
    let name = "";
    for (let k = x + 1; k > 0; k = Math.floor((k - 1) / 26)) name = "abcdefghijklmnopqrstuvwxyz"[(k - 1) % 26] + name;
    return name;
  }
  const fieldName = (x, y) => `${column(x)}${y + 1}`;
  // The coordinates drawn along the left and bottom edges (as the template draws them), to read names off.
  const coords = (cell, grid, x, y) => cell.insertAdjacentHTML("beforeend", Board.edgesHTML(grid.edges(x, y), y + 1, column(x)));

  // What a turn with only a golden move left asks (the server ends the game once nobody can take a field and every
  // player able to make a golden move skipped it in a row: games/gamma/passes.py); "" on any other turn.
  function goldenOnlyText(view) {
    if (!view || view.over || view.turn == null || view.legal.length || !view.golden.length) return "";
    const closed = view.stats.every((st) => st.free === 0);
    const keys = !touchScreen();
    if (closed) {
      return keys ? I18n.t("No field is left. Make your golden move (G), or Skip: when every player skips in a row, the game ends.")
        : I18n.t("No field is left. Make your golden move, or Skip: when every player skips in a row, the game ends.");
    }
    return keys ? I18n.t("No field is open to you. Make your golden move (G), or Skip.")
      : I18n.t("No field is open to you. Make your golden move, or Skip.");
  }

  Quadrille.register("gamma", {
    captured: (state) => typeof state.view.last === "string" && state.view.last.startsWith("g"), // a golden move takes a field
    seatLabel: (seat, state) => { if (state && state.seat_names) seatNames = state.seat_names; return labelOf(seat); },
    turnHint: (state) => goldenOnlyText(state.view),
    reasonText(reason, outcome, names) {
      if (reason !== "stuck" && reason !== "passed") return undefined;
      const best = outcome.scores && outcome.winners.length ? outcome.scores[outcome.winners[0] - 1] : null;
      if (reason === "stuck") {
        return best == null ? I18n.t("Nobody can move any more.")
          : I18n.t("Nobody can move any more; the most fields: {count}.", { count: best });
      }
      return best == null ? I18n.t("No field was left to take, and every player who still had a golden move skipped it.")
        : I18n.t("No field was left to take, and every player who still had a golden move skipped it; the most fields: {count}.",
          { count: best });
    },
    scoreText(outcome, names, state) {
      const fields = outcome.scores && outcome.scores.length ? outcome.scores
        : state && state.view.stats ? state.view.stats.map((st) => st.busy) : [];
      const who = (i) => window.QuadrilleBoard.seatName(names[i]) || I18n.t("Player {number}", { number: i + 1 });
      return fields.length ? I18n.t("Fields: {scores}", { scores: fields.map((n, i) => `${who(i)} ${n}`).join(" · ") }) : "";
    },

    mount(area, ctx) {
      const byId = (id) => document.getElementById(id);
      seatNames = (ctx.state() && ctx.state().seat_names) || [];
      let view = null;
      let state = null;
      let live = true;
      let w = 0;
      let h = 0;
      let grid = null;               // the ARIA grid (board/grid.js): y = 0 at the bottom, never turned
      let cursor = null;             // the keyboard cursor (board/cursor.js), shown once the keys are in use
      const selection = Board.selection(); // the fields to take (or, in golden mode, to take over)
      let golden = false;            // the golden mode
      let goldenAt = null;           // view.moves when the golden mode was switched on

      const board = () => grid.element;

      // -- the grid (rebuilt only when the size changes, e.g. after the creator's start or an import) --------------
      function gridOf(width, height) {
        return Board.grid({
          columns: width, rows: height, upward: true, id: "board", className: "gamma-board", rowClass: "gamma-row",
          label: I18n.t("Gamma board, {width} columns by {height} rows; arrows move the cursor, space takes a field, G switches the golden move, C skips",
            { width, height }),
          position: (cell) => [Number(cell.dataset.x), Number(cell.dataset.y)],
          cell(cell, x, y, built) {
            cell.className = "cell";
            cell.dataset.x = x;
            cell.dataset.y = y;
            cell.title = fieldName(x, y);
            cell.setAttribute("aria-label", `${fieldName(x, y)}: empty`);
            coords(cell, built, x, y);
          },
        });
      }
      function index(element) {
        w = Number(element.dataset.width);
        h = Number(element.dataset.height);
        grid = gridOf(w, h).adopt(element);
        // the terminal game starts on (0, 0), the bottom-left field; the cursor keeps its place between turns
        if (cursor) cursor.relayout(grid); else { cursor = Board.cursor(grid); cursor.place(0, 0); }
      }

      function build(width, height) {
        const old = board();
        const built = gridOf(width, height).build();
        built.element.dataset.width = width;
        built.element.dataset.height = height;
        built.element.style.setProperty("--w", width);
        built.element.style.setProperty("--h", height);
        built.replace(old);
        listen(built.element);
        index(built.element);
        observe(built.element);
      }

      // 1em on the board = one field (the letters and rings scale with it). Measured, not derived with container
      // query units in CSS: those made every redraw restyle every field (0.4 s a move on 100 x 100).
      const sizer = typeof ResizeObserver === "function" ? new ResizeObserver(() => fitFont()) : null;
      function fitFont() {
        const element = board();
        const field = element.clientWidth / Math.max(w, 1);
        if (field > 0) element.style.fontSize = `${field.toFixed(2)}px`;
      }
      function observe(element) {
        if (sizer) { sizer.disconnect(); sizer.observe(element); }
        fitFont();
      }

      function listen(element) {
        element.addEventListener("click", (event) => {
          const cell = event.target.closest(".cell");
          if (!cell || !view || !live || !ctx.mySeats().length || current() == null) return;
          cursor.place(Number(cell.dataset.x), Number(cell.dataset.y));
          playAt(...cursor.at(), golden);
        });
      }
      index(document.getElementById("board"));
      listen(board());
      observe(board());

      // -- whose turn, and what to send ----------------------------------------------------------------------
      // The live turn comes from the match (null before the creator's start and after the end); an earlier
      // position's from its view.
      function current() {
        if (!view) return null;
        if (!live) return view.turn;
        return state.turn == null ? null : state.turn;
      }
      const mine = () => live && current() != null && ctx.mySeats().includes(current());

      function playAt(x, y, isGolden) {
        ctx.play(`${isGolden ? "g" : ""}${x},${y}`);
      }

      function setGolden(on) {
        if (on && !mine()) {
          ctx.message(current() == null ? I18n.t("The game is not under way.") : I18n.t("Wait for your turn."), "error");
          return;
        }
        golden = on;
        goldenAt = on ? view.moves : null;
        redraw();
      }

      // -- drawing ------------------------------------------------------------------------------------------
      function lastField() {
        const m = view.last && FIELD.exec(view.last);
        return m ? Board.key(Number(m[1]), Number(m[2])) : null;
      }

      let drawnMoves = -1; // the moves of the live position drawn last: one more is animated
      function draw(nextView, nextState, isLive) {
        const oneMore = isLive && drawnMoves >= 0 && nextState.moves.length === drawnMoves + 1;
        drawnMoves = isLive ? nextState.moves.length : -1;
        view = nextView;
        state = nextState;
        live = isLive;
        if (state.seat_names) seatNames = state.seat_names;
        if (view.width !== w || view.height !== h) build(view.width, view.height);
        // The golden mode ends with the turn (a move was made) or when it is no longer ours to use.
        if (golden && (!mine() || view.moves !== goldenAt)) { golden = false; goldenAt = null; }
        redraw();
        const last = lastField();
        const lastCell = last && grid.at(...last.split(",").map(Number));
        if (oneMore && lastCell) Motion.pop(lastCell);
      }

      function redraw() {
        if (!view) return;
        const turn = current();
        const canPlay = mine();
        const seats = ctx.mySeats();
        // The one shape of targets: the fields to take, or in golden mode the fields a golden move may take over.
        const fields = golden ? view.golden : live && turn != null ? view.legal : [];
        selection.set(Board.legalMap([["", fields.map(([x, y]) => ({ to: Board.key(x, y), move: `${golden ? "g" : ""}${x},${y}` }))]]));
        const targets = selection.targets();
        const last = lastField();
        const cursorAt = cursor.shown && live && seats.length && turn != null ? Board.key(...cursor.at()) : null;

        for (let y = 0; y < h; y++) {
          const row = view.cells[y];
          for (let x = 0; x < w; x++) {
            const k = Board.key(x, y);
            const owner = row[x];
            let cls = "cell";
            if (owner) {
              cls += " owned " + colourOf(owner);
              if (owner > LETTERS.length) cls += " wide";
              if (owner === turn) cls += " active-owner";
              if (golden && targets.has(k)) cls += " gold";
            } else if (!golden && targets.has(k)) cls += " legal";
            if (k === last) cls += " last last-to";
            if (k === cursorAt) cls += " cursor";
            const cell = grid.at(x, y);
            Board.setClass(cell, cls);
            const text = owner ? markOf(owner) : "";
            if ((cell.dataset.mark || "") !== text) {
              cell.dataset.mark = text;
              cell.textContent = text;
              coords(cell, grid, x, y); // the edge's coordinates stay beside the mark
              cell.setAttribute("aria-label", `${fieldName(x, y)}: ${owner ? labelOf(owner) : I18n.t("empty")}`);
            }
          }
        }
        const element = board();
        element.classList.toggle("golden", golden);
        element.classList.toggle("playable", canPlay);
        element.classList.toggle("watching", live && turn != null && !canPlay);
        element.classList.toggle("replaying", !live);
        element.dataset.turn = turn == null ? "" : turn;
        element.dataset.mode = golden ? "golden" : "normal";

        drawTools(turn, canPlay);
        drawScores(turn);
        drawStart();
      }

      function drawTools(turn, canPlay) {
        const stats = turn != null ? view.stats[turn - 1] : null;
        const goldenButton = byId("gamma-golden");
        goldenButton.disabled = !canPlay || !(golden || (stats && stats.golden_possible));
        goldenButton.setAttribute("aria-pressed", String(golden));
        goldenButton.title = !stats ? I18n.t("Golden move mode (G)")
          : stats.golden_used ? I18n.t("The golden move has been used")
            : stats.golden_possible ? I18n.t("Golden move mode: show the fields a golden move may take (G)")
              : I18n.t("No golden move is possible now");
        byId("gamma-skip").disabled = !canPlay;
        const player = ctx.mySeats().length > 0;  // spectators get the information line only
        goldenButton.hidden = !player;
        byId("gamma-skip").hidden = !player;

        let text;
        if (!live) text = I18n.t("Move {ply}: an earlier position.", { ply: view.moves });
        else if (view.over || state.outcome) text = overText(view.outcome || state.outcome);
        else if (turn == null) text = state.started === false ? I18n.t("Waiting for the start.") : "";
        else if (golden) text = touchScreen() ? I18n.t("Golden move: tap a green field (tap Golden move again to cancel).")
          : I18n.t("Golden move: click a green field, or press space with the cursor on it. Escape cancels.");
        else if (canPlay && goldenOnlyText(view)) {
          text = I18n.t("Your move, {player}: {hint}", { player: labelOf(turn), hint: goldenOnlyText(view) });
        } else if (canPlay) {
          const player = labelOf(turn);
          text = !(stats && stats.golden_possible) ? I18n.t("Your move, {player}: take a green field.", { player })
            : touchScreen() ? I18n.t("Your move, {player}: take a green field, or use Golden move.", { player })
              : I18n.t("Your move, {player}: take a green field, or press G for the golden move.", { player });
        }
        else text = I18n.t("{player} to move.", { player: labelOf(turn) });
        if (live && cursor.shown && ctx.mySeats().length && turn != null) {
          text += " " + I18n.t("Cursor {field}.", { field: fieldName(...cursor.at()) });
        }
        const info = byId("gamma-info");
        if (info.textContent !== text) info.textContent = text;
      }
      function overText(outcome) {
        if (!outcome || !outcome.winners || !outcome.winners.length) return I18n.t("Game over.");
        const best = outcome.scores && outcome.scores.length ? outcome.scores[outcome.winners[0] - 1] : null;
        const players = new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(outcome.winners.map(labelOf));
        const n = outcome.winners.length;
        if (best == null) return I18n.n("Game over: {players} wins.", "Game over: {players} share the win.", n, { players });
        return n > 1 ? I18n.n("Game over: {players} share the win with {count} field.",
          "Game over: {players} share the win with {count} fields.", best, { players, count: best })
          : I18n.n("Game over: {players} wins with {count} field.", "Game over: {players} wins with {count} fields.", best,
            { players, count: best });
      }

      // Who plays a seat, as nodes: the player's name isolated (names.js), "free", or the computer.
      function seatWho(seat) {
        const s = state.seats.find((entry) => entry.seat === seat);
        if (!s) return [];
        if (s.kind === "ai") return [I18n.t("computer ({level})", { level: s.level_name || s.level })];
        const mySeats = ctx.mySeats();
        const me = mySeats.includes(seat) && mySeats.length < state.seats.length ? I18n.t("(you)") : "";
        const named = s.taken && s.name && !/^Player \d+$/.test(s.name);
        const who = !s.taken ? [I18n.t("free")] : named ? [window.QuadrilleNames.seat(s)] : [];
        return me ? [...who, who.length ? " " : "", me] : who;
      }

      function drawScores(turn) {
        const body = byId("gamma-score").tBodies[0];
        if (body.rows.length !== view.stats.length) {
          body.innerHTML = "";
          for (const st of view.stats) {
            const tr = body.insertRow();
            tr.dataset.seat = st.seat;
            tr.innerHTML = `<td><span class="chip ${colourOf(st.seat)}">${markOf(st.seat)}</span>${nameOf(st.seat)} `
              + '<span class="name muted"></span></td><td data-col="busy"></td><td data-col="free"></td>'
              + '<td data-col="areas"></td><td data-col="golden"></td>';
          }
        }
        const winners = view.outcome ? view.outcome.winners : state.outcome && live ? state.outcome.winners : [];
        const limit = view.areas < view.width * view.height ? view.areas : "∞";
        view.stats.forEach((st, k) => {
          const tr = body.rows[k];
          const stuck = !view.over && st.free === 0 && !st.golden_possible;
          tr.className = [st.seat === turn ? "to-move" : "", winners.includes(st.seat) ? "winner" : "",
            stuck ? "stuck" : ""].filter(Boolean).join(" ");
          tr.title = stuck ? I18n.t("Cannot move now: skipped") : "";
          const set = (col, html) => {
            const td = tr.querySelector(`[data-col="${col}"]`);
            if (td.innerHTML !== html) td.innerHTML = html;
          };
          tr.querySelector(".name").replaceChildren(...seatWho(st.seat));
          set("busy", String(st.busy));
          set("free", String(st.free));
          set("areas", `${st.areas} / ${limit}`);
          set("golden", st.golden_used ? I18n.t("used")
            : st.golden_possible ? `<span class="golden-possible">${I18n.t("possible")}</span>` : I18n.t("not now"));
        });
      }

      // -- the creator's start: leave the free seats out, or let the computer play them ---------------------------
      const startPanel = byId("gamma-start");
      const startBox = byId("start-box");
      if (startPanel && startBox) {
        startBox.insertBefore(startPanel, startBox.firstChild);
        // The platform's button starts with the claimed seats; with the computer chosen, this renderer sends the
        // start itself (capture phase: before the button's own listener, which it then does not reach).
        startBox.addEventListener("click", (event) => {
          if (!event.target.closest("#start-match") || startPanel.hidden) return;
          const choice = startPanel.querySelector("input[name=gamma-free]:checked");
          if (!choice || choice.value !== "computer") return;
          event.stopPropagation();
          ctx.emit("start", { computer_level: levelValue(byId("gamma-level").value) });
        }, true);
        startPanel.addEventListener("change", (event) => {
          if (event.target.id === "gamma-level") startPanel.querySelector("input[value=computer]").checked = true;
          drawStart();
        });
      }

      function drawStart() {
        if (!startPanel || !state) return;
        const free = state.seats.filter((s) => !s.taken).map((s) => s.seat);
        startPanel.hidden = !(state.started === false && ctx.mySeats().includes(1) && free.length > 0);
        if (startPanel.hidden) return;
        const taken = state.seats.length - free.length;
        const choice = startPanel.querySelector("input[name=gamma-free]:checked");
        const computer = choice && choice.value === "computer";
        const text = I18n.n("{taken} of {count} seat taken; free: {free}.", "{taken} of {count} seats taken; free: {free}.",
          state.seats.length, { taken, count: state.seats.length, free: free.map(labelOf).join(", ") }) + " "
          + (computer ? I18n.n("The computer will play it.", "The computer will play them.", free.length, { count: free.length })
            : taken < 2 ? I18n.t("Wait for another player, or let the computer play.")
              : I18n.n("The match will start with {count} player.", "The match will start with {count} players.", taken,
                { count: taken }));
        const info = byId("gamma-start-info");
        if (info.textContent !== text) info.textContent = text;
      }

      // -- buttons and keys ----------------------------------------------------------------------------------
      const blurAfterMouse = (event) => { if (event.detail) event.currentTarget.blur(); }; // space stays a move key
      byId("gamma-golden").addEventListener("click", (event) => { blurAfterMouse(event); setGolden(!golden); });
      byId("gamma-skip").addEventListener("click", (event) => { blurAfterMouse(event); ctx.play("skip"); });

      function key(event) {
        if (!view || !live || !ctx.mySeats().length || current() == null) return false;
        const k = event.key;
        if (cursor.move(k)) { // hard walls: an arrow that would leave the board does nothing (as in the terminal game)
          cursor.shown = true;
          redraw();
          return true;
        }
        if (k === " " || k === "Spacebar" || k === "Enter") {
          // a focused button or link (Skip, a move of the list) keeps its own Enter and space
          if (event.target.closest && event.target.closest("button, a, summary, input, select")) return false;
          const wasShown = cursor.shown;
          cursor.shown = true;
          if (!wasShown) redraw();
          playAt(...cursor.at(), golden);
          return true;
        }
        if (k === "g" || k === "G") {
          if (!golden) setGolden(true);
          else if (cursor.shown) playAt(...cursor.at(), true);
          else setGolden(false);
          return true;
        }
        if (k === "c" || k === "C" || k === "e" || k === "E") { // C as in the terminal game; E as every game's end of turn
          ctx.play("skip");
          return true;
        }
        if (k === "Escape" && golden) {
          setGolden(false);
          return true;
        }
        return false;
      }

      return { draw, key };
    },
  });
})();
