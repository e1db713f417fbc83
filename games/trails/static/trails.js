// Trails and Towers renderer: draws the server's view on the server-rendered grid, and turns
// clicks and keys into directions. A click on any cell in line with the active head chooses that
// direction (the rules decide how far it goes); anything else does nothing.
(function () {
  "use strict";
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
    if (!needed) return "no tower win possible";
    return needed === 1 ? "1 tower wins" : `${needed} towers win`;
  }

  const other = (seat) => 3 - seat;

  // Cell names as the move list says them (the STATE's move_names, games/notation.py): files a, b, … from Blue's
  // left, ranks 1, 2, … from Blue's bottom row; drawn along the board's left and bottom edges as seen on screen.
  const FILES = "abcdefghijklmnopqrstuvwxyz";
  const cellName = (r, c, n) => `${FILES[c]}${n - r}`;
  const WHAT = { ".": "empty", "1": "Blue's trail", "2": "Red's trail", T: "tower" };
  function coords(cell, r, c, n, turned) {
    const left = turned ? c === n - 1 : c === 0;
    const bottom = turned ? r === 0 : r === n - 1;
    if (left) cell.insertAdjacentHTML("beforeend", `<span class="coord rank" data-coord="${n - r}" aria-hidden="true"></span>`);
    if (bottom) cell.insertAdjacentHTML("beforeend", `<span class="coord file" data-coord="${FILES[c]}" aria-hidden="true"></span>`);
  }

  Quadrille.register("trails", {
    flips: true,
    captured: (state) => !!(state.view.last_move && state.view.last_move.tower_taken),
    seatLabel: (seat, state) => (state && state.seat_names && state.seat_names[seat - 1]) || ({ 1: "Blue", 2: "Red" })[seat],
    // Why the game ended, in plain words: `names` are the seats' names, `outcome` the engine's.
    reasonText(reason, outcome, names, state) {
      const winner = outcome.winners[0];
      const name = (seat) => names[seat - 1];
      const towers = state && state.options ? state.options.towers : null;
      if (reason === "towers") return `${name(winner)} took ${outcome.scores[winner - 1]} of ${towers} towers.`;
      if (reason === "stuck") return `${name(other(winner))} has no move left.`;
      if (reason === "trapped") return `${name(other(winner))} trapped their own trail.`;
      return undefined;
    },
    scoreText: (outcome, names, state) => {
      const taken = outcome.scores && outcome.scores.length ? outcome.scores : state && state.view.taken;
      return taken ? `Towers taken: ${names[0]} ${taken[0]} · ${names[1]} ${taken[1]}` : "";
    },

    mount(area, ctx) {
      let view = null;
      let live = true;

      function board() { return area.querySelector(".trails-board"); }

      let flipped = false;
      const isFlipped = () => !!(ctx.flipped && ctx.flipped());

      function build(size, turned) {
        // Rebuild the grid only when the size or the side it is seen from changes (e.g. after importing a record
        // of another size). Seen from the second seat's side, the rows and the cells run the other way.
        flipped = !!turned;
        const old = board();
        const grid = document.createElement("div");
        grid.className = "trails-board";
        grid.id = "board";
        grid.setAttribute("role", "grid");
        grid.dataset.size = size;
        grid.style.setProperty("--n", size);
        grid.setAttribute("aria-label", `Trails and Towers board, ${size} by ${size}${flipped ? ", seen from Red's side" : ""}`);
        grid.classList.toggle("flipped", flipped);
        for (let k = 0; k < size; k++) {
          const r = flipped ? size - 1 - k : k;
          const row = document.createElement("div");
          row.className = "trails-row";
          row.setAttribute("role", "row");
          for (let j = 0; j < size; j++) {
            const c = flipped ? size - 1 - j : j;
            const cell = document.createElement("div");
            cell.setAttribute("role", "gridcell");
            cell.className = "cell free";
            cell.dataset.r = r;
            cell.dataset.c = c;
            coords(cell, r, c, size, flipped);
            row.appendChild(cell);
          }
          grid.appendChild(row);
        }
        old.replaceWith(grid);
        listen(grid);
      }

      function listen(grid) {
        grid.addEventListener("click", (event) => {
          const cell = event.target.closest(".cell");
          if (!cell || !view || !live || view.turn == null) return;
          const head = view.heads[view.turn - 1];
          const move = directionOf(head, Number(cell.dataset.r), Number(cell.dataset.c));
          if (move) ctx.play(move);
        });
      }
      listen(board());

      function draw(nextView, state, isLive) {
        view = nextView;
        live = isLive;
        const oneMore = isLive && drawnMoves >= 0 && state.moves.length === drawnMoves + 1;
        if (Number(board().dataset.size) !== view.size || isFlipped() !== flipped) build(view.size, isFlipped());
        drawnMoves = isLive ? state.moves.length : -1;
        const green = new Set(view.green.map(([r, c]) => r * view.size + c));
        const lm = view.last_move;
        const last = new Set(lm ? lm.cells.map(([r, c]) => r * view.size + c) : []);
        // where the trail's head stood before the move: one step back from the first cell claimed
        const from = lm && STEP[lm.move] && lm.cells.length
          ? (lm.cells[0][0] - STEP[lm.move][0]) * view.size + lm.cells[0][1] - STEP[lm.move][1] : -1;
        const active = view.turn ? view.heads[view.turn - 1] : null;
        const cells = board().querySelectorAll(".cell");
        cells.forEach((cell) => {
          const r = Number(cell.dataset.r), c = Number(cell.dataset.c), i = r * view.size + c;
          let cls = "cell " + CLASS[view.cells[r][c]];
          if (green.has(i)) cls += " green";
          if (last.has(i)) cls += " last last-to";
          if (i === from) cls += " last-from";
          if (active && active[0] === r && active[1] === c) cls += " head";
          if (view.heads[0][0] === r && view.heads[0][1] === c) cls += " head1";
          if (view.heads[1][0] === r && view.heads[1][1] === c) cls += " head2";
          if (cell.className !== cls) cell.className = cls;
          // the cell's accessible name: its coordinates, then what stands on it ("c11: Blue's head")
          const head = view.heads[0][0] === r && view.heads[0][1] === c ? "Blue's head"
            : view.heads[1][0] === r && view.heads[1][1] === c ? "Red's head" : WHAT[view.cells[r][c]];
          const said = `${cellName(r, c, view.size)}: ${head}${green.has(i) ? ", a move can reach it" : ""}`;
          if (cell.getAttribute("aria-label") !== said) cell.setAttribute("aria-label", said);
        });
        board().classList.toggle("replaying", !isLive);
        if (oneMore && lm) animate(lm);
        board().dataset.turn = view.turn || "";
        for (const b of area.querySelectorAll("[data-taken]")) b.textContent = view.taken[Number(b.dataset.taken) - 1];
        const needed = area.querySelector("#towers-needed");
        if (needed) needed.textContent = towersNeededText(view.towers_needed);
      }

      let drawnMoves = -1; // the moves of the live position drawn last: a move one on from it is animated

      // The cells the move claimed grow one after another, from the old head to the new one.
      function animate(lm) {
        const cells = lm.cells.map(([r, c]) => board().querySelector(`.cell[data-r="${r}"][data-c="${c}"]`)).filter(Boolean);
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
