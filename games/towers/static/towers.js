// Towers renderer: draws the server's view (templates/board.html renders the same markup first) and
// turns drags, taps and keys into move strings. The server decides legality: the green cells are the selected
// tower's targets from view.legal, and a drop anywhere else is still sent, so that the server says why not.
//
// Input: drag a tower of yours (pointer events: mouse, pen, touch) or tap it and tap the target; right-drag moves
// one pawn; − / + or the digits choose how many pawns move when the rules allow a split. Keys: arrows move a cursor
// while the board has focus, Enter picks up and drops, I imports, E ends the turn, U undoes, Escape puts down.
// The grid, the keyboard cursor and the selection are the board layer's (static/js/board/); the pictures and words
// are towers-look.js's, drags and taps towers-pointer.js's (static/towers.scripts loads both first).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Board = window.QuadrilleBoard; // static/js/board/: the grid, the keyboard cursor, the one shape of targets
  const Towers = window.QuadrilleTowers; // towers-look.js (pictures and words), towers-pointer.js (drags and taps)
  const { NAMES, FILES, cellName, pawns } = Towers;

  Quadrille.register("towers", {
    sides: true, // two sides: their colours are said as sides (QuadrilleBoard.sideName)
    seatLabel: (seat, state) => Board.sideName(state && state.seat_names && state.seat_names[seat - 1]) || NAMES[seat],
    reasonText(reason, outcome, names) {
      if (reason === "master-captured") {
        return I18n.t("{player}'s master was captured.", { player: Board.sideName(names[2 - outcome.winners[0]]) });
      }
      if (reason === "draw-passes") return I18n.t("Both players passed twice in a row: four passes draw the game.");
      return undefined;
    },
    scoreText: () => "", // the outcome's scores only repeat who won
    flips: true,
    captured(state, previous) {
      const mover = previous.view.turn;
      if (!mover) return false;
      return pawns(state.view)[3 - mover] < pawns(previous.view)[3 - mover];
    },

    mount(area, ctx) {
      const $ = (id) => area.querySelector("#" + id);
      let view = null;
      let live = true;
      let version = null;
      let n = 0;
      let grid = null;           // the ARIA grid (board/grid.js); its cells by index y * n + x
      let cells = [];
      const selection = Board.selection(); // the moves of the player to move, by source; which tower is picked up
      let sel = null;            // {i, src, count}: the picked-up tower (src: {key, from, height}) and how many pawns
      let hover = null;          // index under the pointer or the cursor, for the path and cost preview
      let cursor = null;         // the keyboard cursor (board/cursor.js); null until first placed
      let keyboard = false;      // show the cursor (the last input came from the keys)
      let importCount = null;    // digits typed with nothing picked up: how many pawns I imports
      let autoEnd = Towers.readPref();
      let autoEndSent = null;    // the state version for which "end" was sent automatically
      let notice = null;         // {text, until}: a line for the info bar, shown up to state version `until`
      let flipped = false;       // drawn from Red's side (the second seat's player, or the flip button)
      let drawnMoves = -1;       // the moves of the live position drawn last: one more is animated
      const name = (x, y) => cellName(x, y, n);

      const board = () => grid.element;
      const idx = (x, y) => y * n + x;
      const keyOf = (i) => Board.key(i % n, Math.floor(i / n));
      const cursorIndex = () => (cursor ? idx(...cursor.at()) : null);

      // -- the grid (rebuilt only when the size changes, or the side it is seen from) -------------------
      // Seen from Red's side the rows and the cells run the other way; every cell keeps its x and y.
      function gridOf(size, turned, label) {
        return Board.grid({
          columns: size, rows: size, flipped: turned, id: "board", className: "tw-board", rowClass: "tw-row",
          tabIndex: 0, label,
          position: (cell) => [Number(cell.dataset.x), Number(cell.dataset.y)],
          cell(cell, x, y) {
            cell.className = "cell";
            cell.dataset.x = x;
            cell.dataset.y = y;
            cell.dataset.sig = "-";
          },
        });
      }

      function build(size, turned) {
        flipped = !!turned;
        const old = board();
        use(gridOf(size, flipped, old.getAttribute("aria-label") || I18n.t("Towers board")).build());
        grid.element.dataset.size = size;
        $("towers").classList.toggle("flipped", flipped);
        grid.replace(old);
        listen(grid.element);
      }

      function use(next) {
        grid = next;
        n = grid.columns;
        cells = grid.cells;
        $("towers").style.setProperty("--n", n);
        if (cursor) cursor.relayout(grid);
      }

      // -- what the view says ---------------------------------------------------------------------------
      const interactive = () => !!view && live && !view.over && view.turn != null && ctx.canPlay();

      function towerMap() {
        const m = new Map();
        for (const t of view.towers) m.set(idx(t.x, t.y), t);
        return m;
      }

      // The one shape of targets: from each tower that can move, a move for each target and each number of pawns.
      function legalOf() {
        if (!interactive()) return new Map();
        return Board.legalMap(view.legal.sources.map((s) => [Board.key(...s.from), s.targets.flatMap((t) => t.counts.map((k) => (
          { to: Board.key(...t.to), move: moveString(s, t.to[0], t.to[1], k), count: k, distance: t.distance })))]));
      }
      // The tower that can move from cell i (null: none): its key in the shape, where it stands and its height.
      function sourceAt(i) {
        if (i == null || !selection.isSource(keyOf(i))) return null;
        return { key: keyOf(i), from: [i % n, Math.floor(i / n)], height: towerMap().get(i).height };
      }
      const movesOf = (src) => selection.movesFrom(src.key);

      function defaultCount(src) {
        let best = 0;
        for (const m of movesOf(src)) best = Math.max(best, m.count);
        return best || src.height;
      }

      // Where the picked-up tower may go on cell i: {to, counts, distance} (the numbers of pawns that may), or null.
      function targetAt(i) {
        const moves = sel ? selection.movesTo(keyOf(i)) : [];
        return moves.length ? { to: [i % n, Math.floor(i / n)], counts: moves.map((m) => m.count), distance: moves[0].distance } : null;
      }
      const canSplit = (src) => src.height > 1 && movesOf(src).some((m) => m.count < src.height);
      // Nothing useful is left: no tower can move, and an import could only be exported straight back (the last
      // point). The original's preference ends the turn when the points reach 0; Quadrille's engine does that
      // itself, so the preference here covers the turns that still hold points nobody can use.
      const nothingLeft = () => !view.legal.sources.length && (!view.legal.can_import || view.move_points <= 1);

      function moveString(src, x, y, k) { return `m${src.from[0]},${src.from[1]}>${x},${y}:${k}`; }

      // -- drawing --------------------------------------------------------------------------------------
      function draw(nextView, state, isLive) {
        const changed = state.version !== version || isLive !== live || nextView !== view;
        view = nextView;
        live = isLive;
        if (state.version !== version || !isLive) { sel = null; hover = null; pointer.end(); }
        version = state.version;
        if (Number(board().dataset.size) !== view.size || Board.isFlipped(ctx) !== flipped) build(view.size, Board.isFlipped(ctx));
        const oneMore = isLive && drawnMoves >= 0 && state.moves.length === drawnMoves + 1;
        const before = oneMore ? Towers.glideFrom(state.moves[state.moves.length - 1], cells, idx) : null;
        drawnMoves = isLive ? state.moves.length : -1;
        selection.set(legalOf());
        if (sel) {
          const src = sourceAt(sel.i);
          if (src) sel.src = src; else sel = null;
        }
        paint();
        if (before) Towers.glide(before, cells, view, idx);
        if (changed) maybeAutoEnd();
      }

      // Ranks along the left edge, files along the bottom, as the player sees the board.
      const coordsHTML = (x, y) => Board.edgesHTML(grid.edges(x, y), n - y, FILES[x]);

      function paint() {
        if (!view) return;
        const towers = towerMap();
        const target = hover != null ? targetAt(hover) : null;
        const previewing = sel && target && target.counts.includes(sel.count);
        const path = new Set(previewing ? Towers.pathCells(sel.src.from, [hover % n, Math.floor(hover / n)], idx) : []);
        const last = Towers.movedCells(view.previous_turn, idx);
        const mine = Towers.movedCells(view.turn_moves, idx);
        const marks = Towers.lastActions(view, idx);
        const focused = document.activeElement === board();
        cells.forEach((cell, i) => {
          const x = i % n, y = Math.floor(i / n);
          const t = towers.get(i);
          Towers.paintCell(cell, t, name(x, y), coordsHTML(x, y), flipped);
          let cls = "cell " + ((x + y) % 2 ? "dark" : "light");
          if (t) {
            cls += " p" + t.owner;
            if (t.master) cls += " master";
            if (t.danger) cls += " danger";
            if (t.locked) cls += " locked";
          }
          if (selection.isSource(keyOf(i))) cls += " movable";
          if (sel) {
            if (i === sel.i) cls += pointer.dragging() ? " sel lifting" : " sel";
            const tg = targetAt(i);
            if (tg) cls += tg.counts.includes(sel.count) ? " green" : " pale";
          }
          if (path.has(i)) cls += " path";
          if (previewing && i === hover) cls += " drop";
          if (last.has(i)) cls += " last";
          if (marks.from.has(i)) cls += " last-from";
          if (marks.to.has(i)) cls += " last-to";
          if (mine.has(i)) cls += " this-turn";
          if (keyboard && focused && i === cursorIndex()) cls += " cursor";
          Board.setClass(cell, cls);
        });
        const element = board();
        element.classList.toggle("replaying", !live);
        element.classList.toggle("playing", interactive());
        element.classList.toggle("kbd", keyboard);
        element.dataset.turn = view.turn || "";
        element.dataset.selected = sel ? sel.src.key : "";
        // The keyboard cursor is the grid's active cell for assistive technology (the focus stays on the grid).
        const active = keyboard && focused && cursor ? cells[cursorIndex()] : null;
        Board.activeCell(element, active || null, "tw-cell");
        element.dataset.count = sel ? sel.count : "";
        Towers.paintBars(area, view, ctx, previewing ? target.distance * sel.count : 0);
        Towers.paintControls(area, ctx, { can: interactive(), view, importCount, autoEnd, sel,
          split: !!sel && canSplit(sel.src), nothingLeft: !!view.legal && nothingLeft() });
        paintInfo(previewing ? target : null);
      }

      function paintInfo(target) {
        let text;
        if (!live) text = I18n.t("An earlier position (step to the end to play).");
        else if (view.over) text = I18n.t("Game over.");
        else if (view.turn == null) text = "";
        else if (sel) text = Towers.movingText(sel, target, name, movesOf(sel.src).some((m) => m.count === sel.count));
        else {
          const who = NAMES[view.turn];
          text = I18n.n("{player} to move: {count} move point left.", "{player} to move: {count} move points left.",
            view.move_points, { player: who, count: view.move_points });
          if (interactive()) {
            if (view.legal.end_draws) text += " " + I18n.t("Passing now draws the game.");
            else if (nothingLeft()) text += " " + I18n.t("Nothing more can be done: end the turn.");
          }
        }
        if (notice && version <= notice.until && live && !sel) text = notice.text + " " + text;
        const info = $("tw-info");
        if (info.textContent !== text) info.textContent = text;
      }

      // -- acting ---------------------------------------------------------------------------------------
      function play(move) {
        hover = null;
        ctx.play(move);
      }

      function select(src, count) {
        selection.select(src.key);
        sel = { i: idx(src.from[0], src.from[1]), src, count: count || defaultCount(src) };
        importCount = null;
        paint();
      }

      function deselect() {
        selection.clear();
        sel = null;
        hover = null;
        paint();
      }

      function setCount(k) {
        if (sel) {
          if (k < 1 || k > sel.src.height) {
            ctx.message(I18n.n("That tower holds {count} pawn.", "That tower holds {count} pawns.", sel.src.height,
              { count: sel.src.height }));
            return;
          }
          sel.count = k;
        } else {
          importCount = k;
        }
        paint();
      }

      // A drop or a second tap on cell i with the tower in `sel`.
      function attempt(i, how) {
        if (!sel) return;
        const x = i % n, y = Math.floor(i / n);
        const src = sel.src;
        if (i === sel.i) { if (how !== "drag") deselect(); return; }
        const t = targetAt(i);
        if (t && t.counts.includes(sel.count)) return play(moveString(src, x, y, sel.count));
        if (t) {
          // The chosen number of pawns cannot go there, other numbers can (the server's list): ask which.
          const choices = t.counts.map((k) => [I18n.n("Move {count} pawn ({points} pt)", "Move {count} pawns ({points} pt)", k,
            { count: k, points: k * t.distance }), () => play(moveString(src, x, y, k))]);
          Quadrille.ask(I18n.n("{count} pawn cannot go to {cell}. Move how many?", "{count} pawns cannot go to {cell}. Move how many?",
            sel.count, { count: sel.count, cell: name(x, y) }), choices.concat([[I18n.t("Cancel"), null]]));
          return;
        }
        const other = sourceAt(i);
        if (how === "click" && other) return select(other);
        const inLine = (x === src.from[0]) !== (y === src.from[1]);
        if (how === "click" && !inLine) return deselect();
        play(moveString(src, x, y, sel.count)); // not a green cell: the server explains why
      }

      function explain(i) {
        const t = towerMap().get(i);
        if (!t || !interactive()) return;
        if (t.owner !== view.turn) ctx.message(I18n.t("That is not your tower."));
        else if (t.locked) ctx.message(I18n.t("That cell is locked until the end of the turn."));
        else ctx.message(I18n.t("That tower cannot move now (not enough move points, or it is blocked)."));
      }

      function doImport() {
        if (!live) return;
        const k = importCount || 1;
        importCount = null;
        play(`i${k}`);
      }

      function doEnd() {
        if (!live || !view) return;
        if (view.legal.end_draws && interactive()) {
          Quadrille.ask(I18n.t("Passing your turn will draw this game. Are you sure you want to pass?"),
            [[I18n.t("Pass and draw"), () => play("end")], [I18n.t("Keep playing"), null]]);
          return;
        }
        play("end");
      }

      function doUndo() {
        if (!live) return;
        sel = null;
        ctx.emit("takeback", {});
      }

      function maybeAutoEnd() {
        if (!autoEnd || !interactive() || !view.turn_moves.length || view.legal.end_draws) return;
        if (!nothingLeft() || autoEndSent === version) return;
        autoEndSent = version;
        notice = { text: I18n.t("Nothing more could be done: your turn was ended automatically."), until: version + 1 };
        play("end");
      }

      // -- pointer input (towers-pointer.js) -----------------------------------------------------------
      const pointer = Towers.pointer({
        ready: () => !!view,
        interactive,
        indexOf: (cell) => idx(Number(cell.dataset.x), Number(cell.dataset.y)),
        pressed(i) { keyboard = false; if (i != null) placeCursor(i); },
        selected: () => sel,
        sourceAt, targetAt, select, deselect, attempt, explain, paint,
        hovered: () => hover,
        setHover(i, now) { if (i === hover) return; hover = i; if (now) paint(); },
        ghost() {
          const whole = sel.count === sel.src.height && towerMap().get(sel.i).master;
          return Towers.ghost(view.turn, sel.count, whole, cells[sel.i].getBoundingClientRect().width);
        },
      });
      const listen = (element) => pointer.listen(element);

      // -- the buttons ----------------------------------------------------------------------------------
      $("tw-import").addEventListener("click", doImport);
      $("tw-undo").addEventListener("click", doUndo);
      $("tw-end").addEventListener("click", doEnd);
      $("tw-less").addEventListener("click", () => sel && setCount(sel.count - 1));
      $("tw-more").addEventListener("click", () => sel && setCount(sel.count + 1));
      $("tw-auto-end").addEventListener("change", (event) => {
        autoEnd = event.target.checked;
        Towers.writePref(autoEnd);
        maybeAutoEnd();
      });

      // -- keys -----------------------------------------------------------------------------------------
      function placeCursor(i) {
        if (!cursor) cursor = Board.cursor(grid);
        cursor.place(i % n, Math.floor(i / n));
      }
      // The cursor starts on the master of the player to move (or of the player here), else in the middle.
      function startCursor() {
        if (cursor) return;
        const seat = view.turn && ctx.mySeats().includes(view.turn) ? view.turn : ctx.mySeats()[0] || 1;
        const m = view.masters[seat - 1];
        placeCursor(m ? idx(m[0], m[1]) : idx(Math.floor(n / 2), Math.floor(n / 2)));
      }

      function pickOrDrop() {
        startCursor();
        if (!interactive()) {
          if (live && view && !view.over) ctx.message(I18n.t("Wait for your turn."));
          return;
        }
        if (sel) return attempt(cursorIndex(), "key");
        const src = sourceAt(cursorIndex());
        if (src) select(src);
        else explain(cursorIndex());
      }

      function key(event) {
        if (!view) return false;
        const k = event.key;
        const focused = document.activeElement === board();
        if (k.startsWith("Arrow")) {
          if (!focused) return false;
          const wasShown = keyboard && !!cursor;
          keyboard = true;
          startCursor();
          if (wasShown) cursor.move(k); // in screen terms: the arrows go where they point from either side
          hover = sel ? cursorIndex() : null;
          paint();
          return true;
        }
        if (k === "Enter" || k === " ") {
          if (!focused) return false;
          keyboard = true;
          pickOrDrop();
          hover = sel ? cursorIndex() : null;
          paint();
          return true;
        }
        if (k === "Escape") {
          if (!sel && !importCount) return false;
          importCount = null;
          deselect();
          return true;
        }
        if (!live || !ctx.mySeats().length) return false; // spectators: the keys stay the platform's
        if (/^[1-9]$/.test(k)) { setCount(Number(k)); return true; }
        if ((k === "+" || k === "=") && sel) { setCount(sel.count + 1); return true; }
        if (k === "-" && sel) { setCount(sel.count - 1); return true; }
        const lower = k.toLowerCase();
        if (lower === "i") { doImport(); return true; }
        if (lower === "e") { doEnd(); return true; }
        if (lower === "u") { doUndo(); return true; }
        return false;
      }

      use(gridOf(Number($("board").dataset.size), false).adopt($("board")));
      listen(board());
      return { draw, key };
    },
  });
})();
