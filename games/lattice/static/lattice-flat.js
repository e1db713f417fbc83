// Lattice Checkers' flat view: the levels side by side, each a small checkerboard drawn as one of the board layer's
// ARIA grids (static/js/board/grid.js), the same markup as templates/board.html. Drawn from the server's
// view and the controller's marks (lattice.js: targets, the previewed move, the selection); seen from T's side, the
// stylesheet turns each level round (lattice.css, .lattice.flipped). Its keyboard cursor is a roving tabindex that
// runs over the levels as one wide grid (board/cursor.js with a block per level).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Lattice = (window.QuadrilleLattice = window.QuadrilleLattice || {});
  const Board = window.QuadrilleBoard;
  const SEAT_NAME = { 1: "B", 2: "T" };
  const lastOf = (list) => list[list.length - 1];

  // A side is called by its colour ("Blue"), as the server names it (Game.seat_names); B and T are the rules'.
  Lattice.sideLabel = function sideLabel(seat, view) {
    const c = view && view.colors && view.colors[seat];
    return c ? Board.sideName(c.name.charAt(0).toUpperCase() + c.name.slice(1))
      : SEAT_NAME[seat] || I18n.t("Player {number}", { number: seat });
  };
  // "Blue ball", as the page says
  Lattice.pieceName = (n, view) => (n.star ? I18n.t("{side} star", { side: Lattice.sideLabel(n.seat, view) })
    : I18n.t("{side} ball", { side: Lattice.sideLabel(n.seat, view) }));
  const pieceName = Lattice.pieceName;

  // area: the board area; flipped(): whether T's side is at the bottom.
  Lattice.flat = function flat(area, { flipped }) {
    const box = () => area.querySelector("#lattice-levels");
    let cursor = null; // the cell under the keyboard cursor (the one Tab reaches)

    function levelGrid(v, l) {
      const [W, H] = v.grid;
      return Board.grid({
        columns: W, rows: H, upward: true, className: "lattice-grid", rowClass: "lattice-row", cellTag: "span",
        row: (row, i) => { row.innerHTML = `<span class="lattice-axis" aria-hidden="true">${v.axes.y[i]}</span>`; },
        cell(cell, j, i) {
          cell.tabIndex = -1;
          Object.assign(cell.dataset, { x: j, y: i, level: l });
          if ((i + j + l - 1) % 2) { cell.className = "cell hole"; cell.setAttribute("aria-label", I18n.t("no node")); }
          else { cell.className = "cell node"; cell.dataset.node = v.axes.x[j] + v.axes.y[i] + l; cell.innerHTML = '<span class="piece"></span>'; }
        },
        after(grid) {
          const axis = document.createElement("div");
          axis.className = "lattice-row lattice-axis-row";
          axis.setAttribute("aria-hidden", "true");
          axis.innerHTML = '<span class="lattice-axis"></span>' + v.axes.x.map((x) => `<span class="lattice-axis">${x}</span>`).join("");
          grid.appendChild(axis);
        },
      }).build().element;
    }

    // The same structure as templates/board.html, for a lattice of another size.
    function build(v) {
      const [W, H, L] = v.grid;
      const levels = box();
      levels.innerHTML = "";
      levels.dataset.grid = `${W},${H},${L}`;
      for (const lv of v.levels) {
        const l = lv.level;
        const level = document.createElement("div");
        level.className = "lattice-level";
        level.dataset.level = l;
        const title = document.createElement("h3");
        title.className = "lattice-level-title";
        title.id = `lattice-level-${l}`;
        level.appendChild(title);
        const grid = levelGrid(v, l);
        grid.setAttribute("aria-labelledby", title.id);
        grid.style.setProperty("--w", W);
        level.appendChild(grid);
        levels.appendChild(level);
      }
      cursor = null;
    }
    const cellOf = (id) => box().querySelector(`.cell[data-node="${id}"]`);

    // marks: {targets: Map node -> moves ending there, preview: the move shown or null, movable: [node],
    // selected: node or null, live, flipped}
    function render(view, marks) {
      const { targets, preview } = marks;
      const steps = new Map();
      if (preview) preview.path.forEach((id, k) => { if (k) steps.set(id, k); });
      const victims = new Set(preview ? preview.captures : []);
      const last = view.last && !preview ? view.last : null;
      const lastPath = new Set(last ? last.path : []), lastCaps = new Set(last ? last.captures : []);
      const hot = preview ? lastOf(preview.path) : null;
      const movableSet = new Set(marks.movable);
      for (const n of view.nodes) {
        const cell = cellOf(n.id);
        if (!cell) continue;
        let cls = "cell node";
        if (n.seat) cls += ` s${n.seat}${n.star ? " star" : ""}`;
        if (targets.has(n.id)) cls += " target";
        if (n.id === hot) cls += " hot";
        if (steps.has(n.id) && n.id !== hot) cls += " path";
        if (victims.has(n.id)) cls += " victim";
        if (n.id === marks.selected) cls += " selected";
        if (movableSet.has(n.id)) cls += " movable";
        if (lastPath.has(n.id)) cls += " last";
        if (last && n.id === last.path[0]) cls += " last-from";
        if (last && n.id === lastOf(last.path)) cls += " last-to";
        if (lastCaps.has(n.id)) cls += " last-capture";
        Board.setClass(cell, cls);
        const step = steps.has(n.id) && preview.path.length > 2 ? String(steps.get(n.id)) : "";
        if ((cell.dataset.step || "") !== step) { if (step) cell.dataset.step = step; else delete cell.dataset.step; }
        const parts = [n.id, I18n.t("level {level}", { level: n.level }), n.seat ? pieceName(n, view) : I18n.t("empty")];
        if (n.id === marks.selected) parts.push(I18n.t("selected"));
        if (movableSet.has(n.id)) parts.push(I18n.t("can move"));
        if (targets.has(n.id)) {
          const list = targets.get(n.id);
          if (view.pending === "return") parts.push(I18n.t("return a ball here"));
          else if (list.length > 1) parts.push(I18n.n("target of {count} capture chain", "target of {count} capture chains", list.length, { count: list.length }));
          else parts.push(list[0].captures.length ? I18n.t("target: captures {nodes}", { nodes: list[0].captures.join(", ") })
            : I18n.t("target"));
          if (list.some((e) => e.promotes)) parts.push(I18n.t("promotes"));
        }
        if (victims.has(n.id)) parts.push(I18n.t("captured by this move"));
        const text = parts.join(", ");
        Board.setLabel(cell, text);
      }
      area.querySelector(".lattice").classList.toggle("replaying", !marks.live);
      area.querySelector(".lattice").classList.toggle("flipped", marks.flipped);
    }

    // -- the keyboard cursor ------------------------------------------------------------------------
    // The levels side by side as one wide grid in screen terms: a flipped board runs x and y the other way within
    // each level, the levels keep their order.
    function layout(view) {
      const [W, H, L] = view.grid;
      const turn = flipped();
      const sx = (x) => (turn ? W - 1 - x : x), sy = (y) => (turn ? H - 1 - y : y);
      return {
        columns: W * L, rows: H, block: W,
        screenOf: (level, x, y) => [(level - 1) * W + sx(x), H - 1 - sy(y)],
        boardAt: (col, row) => [Math.floor(col / W) + 1, sx(col % W), sy(H - 1 - row)],
      };
    }
    function setCursor(cell, focus) {
      Board.rove(box(), cell, focus);
      cursor = cell;
    }
    function cursorCell() {
      if (cursor && cursor.isConnected) return cursor;
      return box().querySelector('.cell[tabindex="0"]') || box().querySelector(".cell.node");
    }
    // true when `key` is one of the cursor's keys (then it moved, or stood at a wall)
    function moveCursor(key, view) {
      const keys = Board.cursor(layout(view));
      const cell = cursorCell();
      keys.place(Number(cell.dataset.level), Number(cell.dataset.x), Number(cell.dataset.y));
      if (!keys.move(key)) return false;
      const [level, x, y] = keys.at();
      const next = box().querySelector(`.cell[data-level="${level}"][data-x="${x}"][data-y="${y}"]`);
      if (next) setCursor(next, true);
      return true;
    }

    return { box, build, cellOf, render, setCursor, cursorCell, moveCursor, follow: (cell) => { cursor = cell; } };
  };
})();
