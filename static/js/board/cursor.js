// The board layer's keyboard cursor (static/js/board/): where the keys point on a grid (grid.js), moved in screen
// terms so that the arrows go where they point from either side, with hard walls (an arrow that would leave the
// board does nothing). It holds a place, never a decision: Enter or space hands the place to the renderer, which
// selects or plays among the server's targets (selection.js).
//
//   const cursor = QuadrilleBoard.cursor(layout);   // layout: a grid, or {columns, rows, screenOf, boardAt, block}
//   cursor.move(event.key) -> true when it was a cursor key (it moved, or stood at a wall)
//   cursor.at() -> the board position ([x, y], or what the layout's boardAt returns); cursor.place(...position)
//   cursor.shown: the cursor is drawn once the keys are in use (a mouse click hides it again, as the renderer says)
//
// With `block` (Lattice: its levels side by side, each `block` columns wide) Home and End go to the block's first and
// last column and PageUp and PageDown to the next block and the one before.
(function () {
  "use strict";
  const Board = (window.QuadrilleBoard = window.QuadrilleBoard || {});
  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // Whether a key pressed on a page with a board is the board's to take: not while typing in a field, not the
  // Enter or space that presses a button or follows a link, not while a dialog is open, not with Ctrl, Cmd or Alt.
  // The runner pages (tutorial.js, puzzle.js, analysis-board.js) ask it before handing a key on.
  Board.boardKey = function boardKey(event) {
    const t = event.target;
    if (t.closest && t.closest("input, select, textarea")) return false;
    if (t.closest && t.closest("button, a, summary") && (event.key === "Enter" || event.key === " ")) return false;
    if (document.querySelector("dialog[open]")) return false;
    return !(event.ctrlKey || event.metaKey || event.altKey);
  };

  function cursor(initialLayout) {
    let layout = initialLayout;
    let col = 0;
    let row = 0;
    const clamp = (v, n) => Math.min(n - 1, Math.max(0, v));

    const self = {
      shown: false,
      keys: (key) => !!ARROWS[key] || (!!layout.block && ["Home", "End", "PageUp", "PageDown"].includes(key)),
      // A new layout (another size, or the board turned): the cursor keeps its board position where it can.
      relayout(next) {
        const at = self.at();
        layout = next;
        self.place(...at);
      },
      at: () => layout.boardAt(col, row),
      place(...position) {
        const [c, r] = layout.screenOf(...position);
        col = clamp(c, layout.columns);
        row = clamp(r, layout.rows);
      },
      move(key) {
        if (!self.keys(key)) return false;
        const block = layout.block;
        if (ARROWS[key]) {
          col = clamp(col + ARROWS[key][0], layout.columns);
          row = clamp(row + ARROWS[key][1], layout.rows);
        } else if (key === "Home") col = Math.floor(col / block) * block;
        else if (key === "End") col = Math.floor(col / block) * block + block - 1;
        else if (key === "PageUp") col = Math.min(layout.columns - 1, col + block);
        else if (key === "PageDown") col = Math.max(0, col - block);
        return true;
      },
    };
    return self;
  }

  // The cursor's cell as the grid's active cell for assistive technology, the focus staying on the grid itself
  // (aria-activedescendant); `cell` null: none.
  function activeCell(gridElement, cell, idPrefix) {
    if (cell && !cell.id) cell.id = `${idPrefix}-${cell.dataset.x}-${cell.dataset.y}`;
    if (cell) gridElement.setAttribute("aria-activedescendant", cell.id);
    else gridElement.removeAttribute("aria-activedescendant");
  }

  // The cursor's cell as the one cell in `box` the Tab key reaches (a roving tabindex), focused when asked.
  function rove(box, cell, focus) {
    for (const other of box.querySelectorAll('[tabindex="0"]')) if (other !== cell) other.tabIndex = -1;
    cell.tabIndex = 0;
    if (focus) cell.focus();
  }

  Object.assign(Board, { cursor, activeCell, rove });
})();
