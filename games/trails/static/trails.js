// Trails and Towers renderer: draws the server's view on the server-rendered grid, and turns
// clicks and keys into directions. A click on any cell in line with the active head chooses that
// direction (the rules decide how far it goes); anything else does nothing.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const KEYS = {
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
    w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right",
  };
  const CLASS = { ".": "free", "1": "p1", "2": "p2", T: "tower" };
  const STEP = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
  const TURNED = { up: "down", down: "up", left: "right", right: "left" }; // a direction seen from the other side
  const Motion = window.QuadrilleMotion;

  function directionOf(head, r, c) {
    if (c === head[1] && r !== head[0]) return r < head[0] ? "up" : "down";
    if (r === head[0] && c !== head[1]) return c < head[1] ? "left" : "right";
    return null;
  }

  function towersNeededText(needed) {
    if (!needed) return I18n.t("no tower win possible");
    return I18n.n("{count} tower wins", "{count} towers win", needed, { count: needed });
  }

  const other = (seat) => 3 - seat;
  // The score under the board, "Blue: 2 towers", its number in bold (data-taken, as the template draws it): the
  // whole phrase is said again, since the number decides the plural.
  const SCORE = {
    1: (count) => I18n.n("Blue: {count} tower", "Blue: {count} towers", count),
    2: (count) => I18n.n("Red: {count} tower", "Red: {count} towers", count),
  };
  function score(span, seat, taken) {
    const count = taken[seat - 1];
    const text = SCORE[seat](count);
    const number = I18n.number(count);
    const at = text.indexOf(number);
    const bold = document.createElement("b");
    bold.dataset.taken = String(seat);
    bold.textContent = number;
    if (at < 0) span.replaceChildren(text);
    else span.replaceChildren(text.slice(0, at), bold, text.slice(at + number.length));
  }

  // Cell names as the move list says them (the STATE's move_names, games/notation.py): files a, b, … from Blue's
  // left, ranks 1, 2, … from Blue's bottom row; drawn along the board's left and bottom edges as seen on screen.
  const FILES = "abcdefghijklmnopqrstuvwxyz";
  const cellName = (r, c, n) => `${FILES[c]}${n - r}`;
  const WHAT = { ".": I18n.t("empty"), "1": I18n.t("Blue's trail"), "2": I18n.t("Red's trail"), T: I18n.t("tower") };
  const Board = window.QuadrilleBoard; // static/js/board/: the grid, the one shape of legal targets
  const SIDES = { 1: I18n.t("Blue"), 2: I18n.t("Red") };

  Quadrille.register("trails", {
    sides: true, // two sides: their colours are said as sides (QuadrilleBoard.sideName)
    flips: true,
    captured: (state) => !!(state.view.last_move && state.view.last_move.tower_taken),
    seatLabel: (seat, state) => Board.sideName(state && state.seat_names && state.seat_names[seat - 1]) || SIDES[seat],
    // Why the game ended, in plain words: `names` are the seats' names, `outcome` the engine's.
    reasonText(reason, outcome, names, state) {
      const winner = outcome.winners[0];
      const name = (seat) => Board.sideName(names[seat - 1]);
      const towers = state && state.options ? state.options.towers : null;
      if (reason === "towers") {
        return I18n.n("{player} took {taken} of {count} tower.", "{player} took {taken} of {count} towers.", towers,
          { player: name(winner), taken: outcome.scores[winner - 1], count: towers });
      }
      if (reason === "stuck") return I18n.t("{player} has no move left.", { player: name(other(winner)) });
      if (reason === "trapped") return I18n.t("{player} trapped their own trail.", { player: name(other(winner)) });
      return undefined;
    },
    scoreText: (outcome, names, state) => {
      const taken = outcome.scores && outcome.scores.length ? outcome.scores : state && state.view.taken;
      return taken ? I18n.t("Towers taken: {scores}",
        { scores: `${Board.sideName(names[0])} ${taken[0]} · ${Board.sideName(names[1])} ${taken[1]}` }) : "";
    },

    mount(area, ctx) {
      let view = null;
      let live = true;
      let flipped = false;
      const selection = Board.selection();

      // The grid: cells named by row r (= y, from the top) and column c (= x); data-r and data-c as the template's.
      function gridOf(size, turned) {
        return Board.grid({
          columns: size, rows: size, flipped: turned, id: "board", className: "trails-board", rowClass: "trails-row",
          label: turned ? I18n.t("Trails and Towers board, {size} by {size}, seen from Red's side", { size })
            : I18n.t("Trails and Towers board, {size} by {size}", { size }),
          position: (cell) => [Number(cell.dataset.c), Number(cell.dataset.r)],
          cell(cell, c, r, built) {
            cell.className = "cell free";
            cell.dataset.r = r;
            cell.dataset.c = c;
            cell.insertAdjacentHTML("beforeend", Board.edgesHTML(built.edges(c, r), size - r, FILES[c]));
          },
        });
      }
      let grid = gridOf(Number(area.querySelector(".trails-board").dataset.size), false);
      grid.adopt(area.querySelector(".trails-board"));
      const board = () => grid.element;

      function build(size, turned) {
        // Rebuilt only when the size or the side it is seen from changes (e.g. after importing a record of
        // another size); seen from the second seat's side, the rows and the cells run the other way.
        flipped = !!turned;
        const old = board();
        grid = gridOf(size, flipped).build();
        grid.element.dataset.size = size;
        grid.element.style.setProperty("--n", size);
        grid.replace(old);
        listen(grid.element);
      }

      // The one shape of legal targets: from the head to move, a direction to each green cell.
      function legalOf(v) {
        if (v.turn == null) return new Map();
        const head = v.heads[v.turn - 1];
        return Board.legalMap([["", v.green.map(([r, c]) => ({ to: Board.key(c, r), move: directionOf(head, r, c) }))]]);
      }

      function listen(element) {
        // A click on any cell in line with the head plays that direction; the rules decide how far it goes.
        element.addEventListener("click", (event) => {
          const cell = event.target.closest(".cell");
          if (!cell || !view || !live || view.turn == null) return;
          const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
          const target = selection.movesTo(Board.key(c, r))[0];
          const move = target ? target.move : directionOf(view.heads[view.turn - 1], r, c);
          if (move) ctx.play(move);
        });
      }
      listen(board());

      function draw(nextView, state, isLive) {
        view = nextView;
        live = isLive;
        const oneMore = isLive && drawnMoves >= 0 && state.moves.length === drawnMoves + 1;
        if (Number(board().dataset.size) !== view.size || Board.isFlipped(ctx) !== flipped) build(view.size, Board.isFlipped(ctx));
        drawnMoves = isLive ? state.moves.length : -1;
        selection.set(legalOf(view));
        const green = selection.targets();
        const lm = view.last_move;
        const last = new Set(lm ? lm.cells.map(([r, c]) => Board.key(c, r)) : []);
        // where the trail's head stood before the move: one step back from the first cell claimed
        const from = lm && STEP[lm.move] && lm.cells.length
          ? Board.key(lm.cells[0][1] - STEP[lm.move][1], lm.cells[0][0] - STEP[lm.move][0]) : null;
        const active = view.turn ? view.heads[view.turn - 1] : null;
        const isAt = (head, r, c) => !!head && head[0] === r && head[1] === c;
        grid.cells.forEach((cell) => {
          const r = Number(cell.dataset.r), c = Number(cell.dataset.c), k = Board.key(c, r);
          let cls = "cell " + CLASS[view.cells[r][c]];
          if (green.has(k)) cls += " green";
          if (last.has(k)) cls += " last last-to";
          if (k === from) cls += " last-from";
          if (isAt(active, r, c)) cls += " head";
          if (isAt(view.heads[0], r, c)) cls += " head1";
          if (isAt(view.heads[1], r, c)) cls += " head2";
          Board.setClass(cell, cls);
          // the cell's accessible name: its coordinates, then what stands on it ("c11: Blue's head")
          const head = isAt(view.heads[0], r, c) ? I18n.t("Blue's head") : isAt(view.heads[1], r, c) ? I18n.t("Red's head")
            : WHAT[view.cells[r][c]];
          Board.setLabel(cell, `${cellName(r, c, view.size)}: ${head}${green.has(k) ? `, ${I18n.t("a move can reach it")}` : ""}`);
        });
        board().classList.toggle("replaying", !isLive);
        if (oneMore && lm) animate(lm);
        board().dataset.turn = view.turn || "";
        for (const span of area.querySelectorAll("[data-score]")) score(span, Number(span.dataset.score), view.taken);
        const needed = area.querySelector("#towers-needed");
        if (needed) needed.textContent = towersNeededText(view.towers_needed);
      }

      let drawnMoves = -1; // the moves of the live position drawn last: a move one on from it is animated

      // The cells the move claimed grow one after another, from the old head to the new one.
      function animate(lm) {
        const cells = lm.cells.map(([r, c]) => grid.at(c, r)).filter(Boolean);
        Motion.sequence(cells, Motion.pop);
      }

      function key(event) {
        let move = KEYS[event.key];
        if (move && flipped) move = TURNED[move]; // the arrows go where they point on the screen
        if (!move || !view || view.turn == null) return false;
        ctx.play(move);
        return true;
      }

      return { draw, key };
    },
  });
})();
