// Towers renderer: draws the server's view (templates/games/towers/board.html renders the same markup first) and
// turns drags, taps and keys into move strings. The server decides legality: the green cells are the selected
// tower's targets from view.legal, and a drop anywhere else is still sent, so that the server says why not.
//
// Input: drag a tower of yours (pointer events: mouse, pen, touch) or tap it and tap the target; right-drag moves
// one pawn; − / + or the digits choose how many pawns move when the rules allow a split. Keys: arrows move a cursor
// while the board has focus, Enter picks up and drops, I imports, E ends the turn, U undoes, Escape puts down.
(function () {
  "use strict";
  const NAMES = { 1: "Blue", 2: "Red" };
  const MAX_DISCS = 6;
  const DRAG_START = 6; // pixels before a press becomes a drag
  const AUTO_END_KEY = "quadrille.towers.autoEnd";
  const MOVE_RE = /^m(\d+),(\d+)>(\d+),(\d+):(\d+)$/;
  const CROWN = '<svg class="crown" viewBox="0 0 24 16" aria-hidden="true"><path d="M2 14 L1 4 L7 8 L12 1 L17 8 L23 4 L22 14 Z"/></svg>';
  const LOCK = '<span class="lock-mark" aria-hidden="true"><svg viewBox="0 0 16 16"><rect x="3" y="7" width="10" height="8" rx="1.5"/><path d="M5 7 V5 a3 3 0 0 1 6 0 V7" fill="none" stroke-width="2"/></svg></span>';

  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
  const Motion = window.QuadrilleMotion;

  // Cell names for people, as on a chessboard: files a, b, c… from the left, ranks 1, 2, 3… from Blue's side
  // (the bottom row, y = n - 1 in the move strings, is rank 1).
  const FILES = "abcdefghijklmnopqrstuvwxyz";
  const cellName = (x, y, n) => `${FILES[x] || x}${n - y}`;
  // The pawns each side has on the board: a capture lowers the other side's.
  function pawns(view) {
    const out = { 1: 0, 2: 0 };
    for (const t of view.towers) out[t.owner] += t.height;
    return out;
  }

  // The same markup as the template's stack() macro.
  // Each disc carries its side's letter on the top one (B or R), so a greyscale picture still tells them apart.
  // The letter and the coordinates are drawn by CSS from data attributes: the cell's name for assistive
  // technology stays its aria-label ("c2: Blue pawn"), not mixed with these marks.
  function stackHTML(h, master, owner) {
    const v = Math.min(h, MAX_DISCS);
    let html = `<span class="stack" style="--v: ${v}">`;
    for (let d = 0; d < v; d++) html += `<i class="disc" style="--d: ${d}"></i>`;
    if (owner) html += `<b class="side-mark" data-side="${NAMES[owner][0]}" aria-hidden="true"></b>`;
    if (master) html += CROWN;
    if (h > 1) html += `<b class="height">${h}</b>`;
    return html + "</span>";
  }

  function readPref() {
    try { return window.localStorage.getItem(AUTO_END_KEY) === "1"; } catch (e) { return false; }
  }
  function writePref(on) {
    try { window.localStorage.setItem(AUTO_END_KEY, on ? "1" : "0"); } catch (e) { /* storage blocked (iframe) */ }
  }

  Quadrille.register("towers", {
    seatLabel: (seat, state) => (state && state.seat_names && state.seat_names[seat - 1]) || NAMES[seat],
    reasonText(reason, outcome, names) {
      if (reason === "master-captured") return `${names[2 - outcome.winners[0]]}'s master was captured.`;
      if (reason === "draw-passes") return "Both players passed twice in a row: four passes draw the game.";
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
      let cells = [];            // cell elements, index y * n + x
      let sources = new Map();   // index -> legal source of the player to move
      let sel = null;            // {x, y, i, src, count}: the picked-up tower
      let hover = null;          // index under the pointer or the cursor, for the path and cost preview
      let press = null;          // the pointer press in progress
      let ghost = null;          // the dragged tower's picture
      let cursor = null;         // keyboard cursor index
      let keyboard = false;      // show the cursor (the last input came from the keys)
      let importCount = null;    // digits typed with nothing picked up: how many pawns I imports
      let autoEnd = readPref();
      let autoEndSent = null;    // the state version for which "end" was sent automatically
      let notice = null;         // {text, until}: a line for the info bar, shown up to state version `until`
      let flipped = false;       // drawn from Red's side (the second seat's player, or the flip button)
      let drawnMoves = -1;       // the moves of the live position drawn last: one more is animated
      const isFlipped = () => !!(ctx.flipped && ctx.flipped());
      const name = (x, y) => cellName(x, y, n);

      const grid = () => $("board");
      const idx = (x, y) => y * n + x;

      // -- building the grid (only when the size changes) ----------------------------------------------
      function build(size, turned) {
        // Seen from Red's side the rows and the cells run the other way; every cell keeps its x and y.
        flipped = !!turned;
        const old = grid();
        const board = document.createElement("div");
        board.className = "tw-board";
        board.id = "board";
        board.tabIndex = 0;
        board.setAttribute("role", "grid");
        board.setAttribute("aria-label", old.getAttribute("aria-label") || "Towers board");
        board.dataset.size = size;
        board.classList.toggle("flipped", flipped);
        $("towers").classList.toggle("flipped", flipped);
        for (let k = 0; k < size; k++) {
          const y = flipped ? size - 1 - k : k;
          const row = document.createElement("div");
          row.className = "tw-row";
          row.setAttribute("role", "row");
          for (let j = 0; j < size; j++) {
            const x = flipped ? size - 1 - j : j;
            const cell = document.createElement("div");
            cell.setAttribute("role", "gridcell");
            cell.className = "cell";
            cell.dataset.x = x;
            cell.dataset.y = y;
            cell.dataset.sig = "-";
            row.appendChild(cell);
          }
          board.appendChild(row);
        }
        old.replaceWith(board);
        listen(board);
        index();
      }

      function index() {
        n = Number(grid().dataset.size);
        $("towers").style.setProperty("--n", n);
        cells = [];
        for (const cell of grid().querySelectorAll(".cell")) cells[idx(Number(cell.dataset.x), Number(cell.dataset.y))] = cell;
      }

      // -- what the view says ---------------------------------------------------------------------------
      const interactive = () => !!view && live && !view.over && view.turn != null && ctx.canPlay();

      function towerMap() {
        const m = new Map();
        for (const t of view.towers) m.set(idx(t.x, t.y), t);
        return m;
      }

      function defaultCount(src) {
        let best = 0;
        for (const t of src.targets) for (const k of t.counts) best = Math.max(best, k);
        return best || src.height;
      }

      const targetAt = (i) => (sel ? sel.src.targets.find((t) => idx(t.to[0], t.to[1]) === i) : null);
      const canSplit = (src) => src.height > 1 && src.targets.some((t) => t.counts.some((k) => k < src.height));
      // Nothing useful is left: no tower can move, and an import could only be exported straight back (the last
      // point). The original's preference ends the turn when the points reach 0; Quadrille's engine does that
      // itself, so the preference here covers the turns that still hold points nobody can use.
      const nothingLeft = () => !view.legal.sources.length && (!view.legal.can_import || view.move_points <= 1);

      function moveString(src, x, y, k) { return `m${src.from[0]},${src.from[1]}>${x},${y}:${k}`; }

      function pathCells(src, i) {
        const [x0, y0] = src.from, x1 = i % n, y1 = Math.floor(i / n);
        const out = [];
        if (x0 !== x1 && y0 !== y1) return out;
        const dx = Math.sign(x1 - x0), dy = Math.sign(y1 - y0);
        for (let x = x0 + dx, y = y0 + dy; x !== x1 || y !== y1; x += dx, y += dy) out.push(idx(x, y));
        return out;
      }

      function movedCells(moves) {
        const out = new Set();
        for (const m of moves || []) {
          const g = MOVE_RE.exec(m);
          if (g) { out.add(idx(+g[1], +g[2])); out.add(idx(+g[3], +g[4])); }
        }
        return out;
      }

      // -- drawing --------------------------------------------------------------------------------------
      function draw(nextView, state, isLive) {
        const changed = state.version !== version || isLive !== live || nextView !== view;
        view = nextView;
        live = isLive;
        if (state.version !== version || !isLive) { sel = null; hover = null; endDrag(); }
        version = state.version;
        if (Number(grid().dataset.size) !== view.size || isFlipped() !== flipped) build(view.size, isFlipped());
        if (cells.length !== view.size * view.size) index();
        const oneMore = isLive && drawnMoves >= 0 && state.moves.length === drawnMoves + 1;
        const before = oneMore ? lastActionRects(state.moves[state.moves.length - 1]) : null;
        drawnMoves = isLive ? state.moves.length : -1;
        sources = new Map();
        if (interactive()) for (const s of view.legal.sources) sources.set(idx(s.from[0], s.from[1]), s);
        if (sel) {
          const src = sources.get(sel.i);
          if (src) sel.src = src; else sel = null;
        }
        paint();
        if (before) animate(before);
        if (changed) maybeAutoEnd();
      }

      // -- the move just played glides from its old cell (the rectangles are taken before the repaint) --------
      function lastActionRects(move) {
        const g = MOVE_RE.exec(move);
        if (g) {
          const from = cells[idx(+g[1], +g[2])];
          return from ? { kind: "move", to: idx(+g[3], +g[4]), from: from.getBoundingClientRect() } : null;
        }
        if (/^i\d+$/.test(move)) return { kind: "import" };
        return null;
      }
      function animate(before) {
        if (before.kind === "move") {
          const cell = cells[before.to];
          const stack = cell && cell.querySelector(".stack");
          if (stack) Motion.slide(stack, before.from);
        } else if (before.kind === "import") {
          const m = view.masters[(view.turn || 1) - 1];
          const cell = m && cells[idx(m[0], m[1])];
          if (cell && cell.querySelector(".stack")) Motion.pop(cell.querySelector(".stack"));
        }
      }

      // The last move stays marked: the actions of the turn under way, else those of the turn before.
      function lastActions() {
        const moves = (view.turn_moves || []).some((m) => MOVE_RE.test(m)) ? view.turn_moves : view.previous_turn;
        const from = new Set(), to = new Set();
        for (const m of moves || []) {
          const g = MOVE_RE.exec(m);
          if (g) { from.add(idx(+g[1], +g[2])); to.add(idx(+g[3], +g[4])); }
        }
        for (const i of to) from.delete(i); // a tower that moved twice: its last stop is where it is now
        return { from, to };
      }
      // Ranks along the left edge, files along the bottom, as the player sees the board.
      function coordsHTML(x, y) {
        const left = flipped ? x === n - 1 : x === 0;
        const bottom = flipped ? y === 0 : y === n - 1;
        return (left ? `<span class="coord rank" data-coord="${n - y}" aria-hidden="true"></span>` : "")
          + (bottom ? `<span class="coord file" data-coord="${FILES[x]}" aria-hidden="true"></span>` : "");
      }

      function paint() {
        if (!view) return;
        const towers = towerMap();
        const target = hover != null ? targetAt(hover) : null;
        const previewing = sel && target && target.counts.includes(sel.count);
        const path = new Set(previewing ? pathCells(sel.src, hover) : []);
        const last = movedCells(view.previous_turn);
        const mine = movedCells(view.turn_moves);
        const marks = lastActions();
        const focused = document.activeElement === grid();
        cells.forEach((cell, i) => {
          const x = i % n, y = Math.floor(i / n);
          const t = towers.get(i);
          const sig = (t ? `${t.owner}.${t.height}.${t.master ? 1 : 0}.${t.locked ? 1 : 0}` : "") + (flipped ? "|f" : "|b");
          if (cell.dataset.sig !== sig) {
            cell.innerHTML = (t ? stackHTML(t.height, t.master, t.owner) + (t.locked ? LOCK : "") : "") + coordsHTML(x, y);
            cell.dataset.sig = sig;
            cell.setAttribute("aria-label", `${name(x, y)}: ` + (t
              ? `${NAMES[t.owner]} ${t.height > 1 ? "tower of " + t.height : "pawn"}${t.master ? ", master" : ""}${t.locked ? ", locked" : ""}`
              : "empty"));
          }
          let cls = "cell " + ((x + y) % 2 ? "dark" : "light");
          if (t) {
            cls += " p" + t.owner;
            if (t.master) cls += " master";
            if (t.danger) cls += " danger";
            if (t.locked) cls += " locked";
          }
          if (sources.has(i)) cls += " movable";
          if (sel) {
            if (i === sel.i) cls += press && press.dragging ? " sel lifting" : " sel";
            const tg = targetAt(i);
            if (tg) cls += tg.counts.includes(sel.count) ? " green" : " pale";
          }
          if (path.has(i)) cls += " path";
          if (previewing && i === hover) cls += " drop";
          if (last.has(i)) cls += " last";
          if (marks.from.has(i)) cls += " last-from";
          if (marks.to.has(i)) cls += " last-to";
          if (mine.has(i)) cls += " this-turn";
          if (keyboard && focused && i === cursor) cls += " cursor";
          if (cell.className !== cls) cell.className = cls;
        });
        const board = grid();
        board.classList.toggle("replaying", !live);
        board.classList.toggle("playing", interactive());
        board.classList.toggle("kbd", keyboard);
        board.dataset.turn = view.turn || "";
        board.dataset.selected = sel ? `${sel.src.from[0]},${sel.src.from[1]}` : "";
        // The keyboard cursor is the grid's active cell for assistive technology (the focus stays on the grid).
        const active = keyboard && focused && cursor != null && cells[cursor] ? cells[cursor] : null;
        if (active && !active.id) active.id = `tw-cell-${active.dataset.x}-${active.dataset.y}`;
        if (active) board.setAttribute("aria-activedescendant", active.id);
        else board.removeAttribute("aria-activedescendant");
        board.dataset.count = sel ? sel.count : "";
        paintBars(previewing ? target.distance * sel.count : 0);
        paintControls();
        paintInfo(previewing ? target : null);
      }

      function paintBars(pending) {
        for (const p of [1, 2]) {
          const bar = $("tw-bar-" + p);
          if (!bar) continue;
          const pts = view.points[p - 1];
          const total = pts.unused + pts.used;
          bar.classList.toggle("to-move", !view.over && view.current === p);
          bar.classList.toggle("winner", view.winner === p);
          const you = ctx.mySeats().includes(p) && ctx.mySeats().length === 1;
          bar.querySelector(".tw-who").textContent = NAMES[p] + (you ? " (you)" : "");
          bar.querySelector(".tw-unused").textContent = pts.unused;
          bar.querySelector(".tw-used").textContent = pts.used;
          const track = bar.querySelector(".tw-track");
          track.style.setProperty("--t", Math.max(total, 1));
          track.setAttribute("aria-label", `${plural(pts.unused, "move point")} left, ${pts.used} used`);
          while (track.children.length < total) track.appendChild(document.createElement("i"));
          while (track.children.length > total) track.lastChild.remove();
          [...track.children].forEach((pawn, k) => {
            const used = k >= pts.unused;
            // The pawns that the hovered move would spend: the last `pending` unused ones.
            const spend = !used && p === view.current && k >= pts.unused - pending;
            pawn.className = "tw-pawn" + (used ? " used" : "") + (spend ? " pending" : "");
            pawn.style.setProperty("--slot", used ? total - 1 - k : k);
          });
        }
      }

      function paintControls() {
        const can = interactive();
        const legal = view.legal;
        const imp = $("tw-import"), undo = $("tw-undo"), end = $("tw-end");
        imp.disabled = !can || !legal.can_import;
        imp.textContent = importCount && importCount > 1 ? `Import ${importCount}` : "Import";
        undo.disabled = !can || !view.can_undo;
        end.disabled = !can || !legal.can_end;
        end.textContent = legal.end_draws ? "Pass (draws)" : view.turn_moves.length ? "End turn" : "Pass";
        end.title = "End your turn (E)";
        end.classList.toggle("salient", can && nothingLeft());
        end.classList.toggle("draws", can && legal.end_draws);
        $("tw-auto-end").checked = autoEnd;
        $("tw-auto-end").closest("label").hidden = !ctx.mySeats().length;
        const count = $("tw-count");
        const show = !!sel && canSplit(sel.src);
        count.hidden = !show;
        if (sel) {
          $("tw-count-value").textContent = sel.count;
          $("tw-count-max").textContent = sel.src.height;
          $("tw-less").disabled = sel.count <= 1;
          $("tw-more").disabled = sel.count >= sel.src.height;
        }
      }

      function paintInfo(target) {
        let text;
        if (!live) text = "An earlier position (step to the end to play).";
        else if (view.over) text = "Game over.";
        else if (view.turn == null) text = "";
        else if (sel) {
          const h = sel.src.height, [x, y] = sel.src.from;
          text = `${h > 1 ? "Tower of " + h : "Pawn"} at ${name(x, y)}: moving ${sel.count === h ? (h > 1 ? "the whole tower" : "it") : plural(sel.count, "pawn")}`;
          if (target) {
            text += ` to ${name(target.to[0], target.to[1])} costs ${target.distance} × ${sel.count} = ${plural(target.distance * sel.count, "point")}.`;
          } else {
            const any = sel.src.targets.some((t) => t.counts.includes(sel.count));
            text += any ? "; the green cells are where it can go." : "; no cell can take that many: choose another number.";
          }
        } else {
          const who = NAMES[view.turn];
          text = `${who} to move: ${plural(view.move_points, "move point")} left.`;
          if (interactive()) {
            if (view.legal.end_draws) text += " Passing now draws the game.";
            else if (nothingLeft()) text += " Nothing more can be done: end the turn.";
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
        sel = { i: idx(src.from[0], src.from[1]), src, count: count || defaultCount(src) };
        importCount = null;
        paint();
      }

      function deselect() {
        sel = null;
        hover = null;
        paint();
      }

      function setCount(k) {
        if (sel) {
          if (k < 1 || k > sel.src.height) {
            ctx.message(`That tower holds ${plural(sel.src.height, "pawn")}.`);
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
          const choices = t.counts.map((k) => [`Move ${plural(k, "pawn")} (${k * t.distance} pt)`,
            () => play(moveString(src, x, y, k))]);
          Quadrille.ask(`${plural(sel.count, "pawn")} cannot go to ${name(x, y)}. Move how many?`, choices.concat([["Cancel", null]]));
          return;
        }
        const other = sources.get(i);
        if (how === "click" && other) return select(other);
        const inLine = (x === src.from[0]) !== (y === src.from[1]);
        if (how === "click" && !inLine) return deselect();
        play(moveString(src, x, y, sel.count)); // not a green cell: the server explains why
      }

      function explain(i) {
        const t = towerMap().get(i);
        if (!t || !interactive()) return;
        if (t.owner !== view.turn) ctx.message("That is not your tower.");
        else if (t.locked) ctx.message("That cell is locked until the end of the turn.");
        else ctx.message("That tower cannot move now (not enough move points, or it is blocked).");
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
          Quadrille.ask("Passing your turn will draw this game. Are you sure you want to pass?",
            [["Pass and draw", () => play("end")], ["Keep playing", null]]);
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
        notice = { text: "Nothing more could be done: your turn was ended automatically.", until: version + 1 };
        play("end");
      }

      // -- pointer input --------------------------------------------------------------------------------
      function cellIndexAt(clientX, clientY) {
        const el = document.elementFromPoint(clientX, clientY);
        const cell = el && el.closest ? el.closest(".tw-board .cell") : null;
        if (!cell || !grid().contains(cell)) return null;
        return idx(Number(cell.dataset.x), Number(cell.dataset.y));
      }

      function startDrag(event) {
        press.dragging = true;
        const src = sel.src;
        const owner = view.turn;
        const size = cells[sel.i].getBoundingClientRect().width;
        ghost = document.createElement("div");
        ghost.className = `tw-ghost p${owner}${sel.count === src.height && towerMap().get(sel.i).master ? " master" : ""}`;
        ghost.style.setProperty("--size", size + "px");
        ghost.innerHTML = stackHTML(sel.count, sel.count === src.height && towerMap().get(sel.i).master, owner);
        document.body.appendChild(ghost);
        moveGhost(event);
        paint();
      }

      function moveGhost(event) {
        if (!ghost) return;
        ghost.style.left = event.clientX + "px";
        ghost.style.top = event.clientY + "px";
      }

      function endDrag() {
        if (ghost) { ghost.remove(); ghost = null; }
        press = null;
      }

      function listen(board) {
        board.addEventListener("contextmenu", (event) => event.preventDefault()); // right-drag = one pawn
        board.addEventListener("pointerdown", (event) => {
          if (!view || event.button > 2 || event.button === 1) return;
          board.focus({ preventScroll: true });
          keyboard = false;
          const i = cellIndexAt(event.clientX, event.clientY);
          if (i == null) return;
          cursor = i;
          if (!interactive()) { paint(); return; }
          event.preventDefault(); // no text selection, no emulated mouse quirks
          const right = event.button === 2;
          const src = sources.get(i);
          const wasSelected = !!sel && sel.i === i;
          const isTarget = !!sel && !!targetAt(i);
          press = { i, x: event.clientX, y: event.clientY, pointer: event.pointerId, src, right, wasSelected,
                    deferred: isTarget, dragging: false };
          try { board.setPointerCapture(event.pointerId); } catch (e) { /* synthetic events */ }
          if (src && !isTarget && (!wasSelected || right)) select(src, right ? 1 : null);
          else paint();
        });
        board.addEventListener("pointermove", (event) => {
          if (!view) return;
          if (press && press.pointer === event.pointerId) {
            if (!press.dragging && press.src &&
                Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_START) {
              if (!sel || sel.i !== press.i) select(press.src, press.right ? 1 : null);
              startDrag(event);
            }
            if (press.dragging) {
              moveGhost(event);
              const i = cellIndexAt(event.clientX, event.clientY);
              if (i !== hover) { hover = i; paint(); }
            }
            return;
          }
          if (sel && event.pointerType === "mouse") { // hover preview of the path and the cost
            const i = cellIndexAt(event.clientX, event.clientY);
            if (i !== hover) { hover = i; paint(); }
          }
        });
        const release = (event) => {
          if (!press || press.pointer !== event.pointerId) return;
          const p = press;
          const i = cellIndexAt(event.clientX, event.clientY);
          endDrag();
          if (p.dragging) {
            hover = null;
            if (i != null && sel) attempt(i, "drag");
            else paint();
            return;
          }
          if (i !== p.i) { paint(); return; } // pressed and slid off without a drag: nothing
          if (p.deferred) return attempt(i, "click");
          if (p.src) {
            if (p.wasSelected && !p.right) deselect();
            return;
          }
          if (sel) return attempt(i, "click");
          explain(i);
        };
        board.addEventListener("pointerup", release);
        board.addEventListener("pointercancel", () => { endDrag(); hover = null; paint(); });
        board.addEventListener("pointerleave", (event) => {
          if (!press && event.pointerType === "mouse" && hover != null) { hover = null; paint(); }
        });
        board.addEventListener("focus", () => paint());
        board.addEventListener("blur", () => paint());
      }

      // -- the buttons ----------------------------------------------------------------------------------
      $("tw-import").addEventListener("click", doImport);
      $("tw-undo").addEventListener("click", doUndo);
      $("tw-end").addEventListener("click", doEnd);
      $("tw-less").addEventListener("click", () => sel && setCount(sel.count - 1));
      $("tw-more").addEventListener("click", () => sel && setCount(sel.count + 1));
      $("tw-auto-end").addEventListener("change", (event) => {
        autoEnd = event.target.checked;
        writePref(autoEnd);
        maybeAutoEnd();
      });

      // -- keys -----------------------------------------------------------------------------------------
      function startCursor() {
        if (cursor != null && cursor < n * n) return;
        const seat = view.turn && ctx.mySeats().includes(view.turn) ? view.turn : ctx.mySeats()[0] || 1;
        const m = view.masters[seat - 1];
        cursor = m ? idx(m[0], m[1]) : idx(Math.floor(n / 2), Math.floor(n / 2));
      }

      function pickOrDrop() {
        startCursor();
        if (!interactive()) {
          if (live && view && !view.over) ctx.message("Wait for your turn.");
          return;
        }
        if (sel) return attempt(cursor, "key");
        const src = sources.get(cursor);
        if (src) select(src);
        else explain(cursor);
      }

      const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

      function key(event) {
        if (!view) return false;
        const k = event.key;
        const focused = document.activeElement === grid();
        if (ARROWS[k]) {
          if (!focused) return false;
          const wasShown = keyboard && cursor != null;
          keyboard = true;
          startCursor();
          if (wasShown) {
            const [dx, dy] = ARROWS[k].map((d) => (flipped ? -d : d)); // the arrows go where they point on the screen
            const x = Math.min(n - 1, Math.max(0, (cursor % n) + dx));
            const y = Math.min(n - 1, Math.max(0, Math.floor(cursor / n) + dy));
            cursor = idx(x, y);
          }
          hover = sel ? cursor : null;
          paint();
          return true;
        }
        if (k === "Enter" || k === " ") {
          if (!focused) return false;
          keyboard = true;
          pickOrDrop();
          hover = sel ? cursor : null;
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

      index();
      listen(grid());
      return { draw, key };
    },
  });
})();
