// The board layer's grid (static/js/board/): the ARIA grid every renderer draws its cells in, seen from either side.
//
//   const grid = QuadrilleBoard.grid({ columns, rows, upward, flipped, className, rowClass, label, cell, ... });
//
// A cell is named by its board coordinates (x from the left, y from the top, or from the bottom with `upward`, as
// the game's move strings count them). On screen the rows and the columns are laid out in reading order; `flipped`
// (the second seat's side) runs both the other way, and every cell keeps its own x and y. The grid answers where a
// cell is on screen (screenOf) and which cell is at a place on screen (boardAt): the keyboard cursor (cursor.js)
// moves in screen terms through them, so the arrows go where they point for both sides.
//
// build() makes the element (role=grid > role=row > role=gridcell), calling spec.cell(element, x, y, grid) for each
// new cell and spec.row(element, y) for each new row; adopt(element) takes the server-rendered markup of the same
// shape instead, reading each cell's coordinates with spec.position(cell) -> [x, y].
(function () {
  "use strict";
  const Board = (window.QuadrilleBoard = window.QuadrilleBoard || {});

  function grid(spec) {
    const { columns, rows } = spec;
    const flipped = !!spec.flipped;
    const upward = !!spec.upward;
    // screen column/row (0 at the left/top) <-> board x/y
    const xAt = (col) => (flipped ? columns - 1 - col : col);
    const yAt = (row) => {
      const fromTop = flipped ? rows - 1 - row : row;
      return upward ? rows - 1 - fromTop : fromTop;
    };
    const colOf = xAt; // each mapping is its own inverse
    const rowOf = (y) => {
      const fromTop = upward ? rows - 1 - y : y;
      return flipped ? rows - 1 - fromTop : fromTop;
    };

    const self = {
      columns, rows, flipped, upward, element: null, cells: new Array(columns * rows),
      index: (x, y) => y * columns + x,
      at: (x, y) => (x >= 0 && y >= 0 && x < columns && y < rows ? self.cells[y * columns + x] : null),
      screenOf: (x, y) => [colOf(x), rowOf(y)],
      boardAt: (col, row) => [xAt(col), yAt(row)],
      // the cells along the screen's left and bottom edges carry the coordinates (edgesHTML)
      edges: (x, y) => ({ left: colOf(x) === 0, bottom: rowOf(y) === rows - 1 }),
      build() {
        const element = document.createElement(spec.tag || "div");
        element.className = spec.className;
        if (spec.id) element.id = spec.id;
        element.setAttribute("role", "grid");
        if (spec.label) element.setAttribute("aria-label", spec.label);
        if (spec.tabIndex != null) element.tabIndex = spec.tabIndex;
        element.classList.toggle("flipped", flipped);
        for (let row = 0; row < rows; row++) {
          const y = yAt(row);
          const rowElement = document.createElement("div");
          rowElement.className = spec.rowClass;
          rowElement.setAttribute("role", "row");
          if (spec.row) spec.row(rowElement, y);
          for (let col = 0; col < columns; col++) {
            const x = xAt(col);
            const cell = document.createElement(spec.cellTag || "div");
            cell.setAttribute("role", "gridcell");
            spec.cell(cell, x, y, self);
            self.cells[y * columns + x] = cell;
            rowElement.appendChild(cell);
          }
          element.appendChild(rowElement);
        }
        if (spec.after) spec.after(element);
        self.element = element;
        return self;
      },
      adopt(element) {
        self.element = element;
        for (const cell of element.querySelectorAll('[role="gridcell"]')) {
          const [x, y] = spec.position(cell);
          self.cells[y * columns + x] = cell;
        }
        return self;
      },
      // Put the built grid in place of the old element.
      replace(old) {
        old.replaceWith(self.element);
        return self;
      },
    };
    return self;
  }

  // The coordinates drawn along the board's left (ranks) and bottom (files) edges, as seen on screen.
  function edgesHTML(edges, rank, file) {
    return (edges.left ? `<span class="coord rank" data-coord="${rank}" aria-hidden="true"></span>` : "")
      + (edges.bottom ? `<span class="coord file" data-coord="${file}" aria-hidden="true"></span>` : "");
  }

  // Which way up a board is drawn: the match page says (the second seat's player, or the flip button).
  const isFlipped = (ctx) => !!(ctx.flipped && ctx.flipped());

  // A cell's class list, set only when it changed (a redraw touches no cell whose look stays the same).
  function setClass(element, cls) {
    if (element.className !== cls) element.className = cls;
  }
  function setLabel(element, text) {
    if (element.getAttribute("aria-label") !== text) element.setAttribute("aria-label", text);
  }

  Object.assign(Board, { grid, edgesHTML, isFlipped, setClass, setLabel });
})();

// The board's words in the page's language: the seats' colours the engines name them by (the STATE's seat_names:
// "Blue", Gamma's sixteen, Lattice's chosen colours) and the few words of the move names games/notation.py makes
// ("c11 tower", "import 1", "end", "return Ab1", "c5 golden", "skip"); the cells' names stay as they are.
(function () {
  "use strict";
  const Board = (window.QuadrilleBoard = window.QuadrilleBoard || {});
  const I18n = window.QuadrilleI18n;
  const COLOURS = {
    Blue: I18n.t("Blue"), Red: I18n.t("Red"), Orange: I18n.t("Orange"), Pink: I18n.t("Pink"), Sky: I18n.t("Sky"),
    Yellow: I18n.t("Yellow"), Indigo: I18n.t("Indigo"), Wine: I18n.t("Wine"), Teal: I18n.t("Teal"),
    Olive: I18n.t("Olive"), Purple: I18n.t("Purple"), Brown: I18n.t("Brown"), Sand: I18n.t("Sand"),
    Black: I18n.t("Black"), Grey: I18n.t("Grey"), Rose: I18n.t("Rose"), Green: I18n.t("Green"),
    Cyan: I18n.t("Cyan"), Magenta: I18n.t("Magenta"), White: I18n.t("White"),
  };
  // The same colours as a side of a two-sided game (Trails, Towers, Lattice): a language may say a side otherwise
  // than one player of many (Russian: «Синие», like chess' «Белые», but Gamma's player «Синий»).
  const SIDES = {
    // TRANSLATORS: a side of a two-sided game, as "White" and "Black" in chess
    Blue: I18n.p("side", "Blue"), Red: I18n.p("side", "Red"), Orange: I18n.p("side", "Orange"),
    Yellow: I18n.p("side", "Yellow"), Green: I18n.p("side", "Green"), Cyan: I18n.p("side", "Cyan"),
    Magenta: I18n.p("side", "Magenta"), White: I18n.p("side", "White"),
  };
  // each pattern of games/notation.py (tests/platform/test_game_words_i18n.py holds the two lists together)
  const MOVES = [
    [/^(\S+) tower$/, (m) => I18n.t("{cell} tower", { cell: m[1] })],
    [/^import (\d+)$/, (m) => I18n.t("import {count}", { count: m[1] })],
    // NOTE: a Towers move that ends the turn, in the move list
    [/^end$/, () => I18n.t("end")],
    [/^return (\S+)$/, (m) => I18n.t("return {node}", { node: m[1] })],
    [/^(\S+) golden$/, (m) => I18n.t("{cell} golden", { cell: m[1] })],
    [/^skip$/, () => I18n.t("skip")],
  ];

  // "Blue" -> "Niebieski", "Player 17" -> "Gracz 17"; a name the table lacks stays as it is
  Board.seatName = (name) => {
    if (name && Object.prototype.hasOwnProperty.call(COLOURS, name)) return COLOURS[name];
    const numbered = /^Player (\d+)$/.exec(name || "");
    return numbered ? I18n.t("Player {number}", { number: numbered[1] }) : name;
  };

  // a side of a two-sided game (the renderer says `sides: true`): "Blue" -> "Синие"
  Board.sideName = (name) =>
    (name && Object.prototype.hasOwnProperty.call(SIDES, name) ? SIDES[name] : Board.seatName(name));

  Board.moveName = (name) => {
    for (const [pattern, say] of MOVES) {
      const m = pattern.exec(name || "");
      if (m) return say(m);
    }
    return name;
  };
})();
