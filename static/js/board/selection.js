// The board layer's selection (static/js/board/): the legal targets in one shape for every game, and what is
// picked among them.
//
// The shape: a Map from a source (the key of the piece or cell a move starts from) to the moves that start there,
// each {to, move, ...}: `to` the key of the cell it ends on, `move` the string the server is sent, and whatever else
// the game's view says of it (a count, a path, captures). The source "" holds moves that have no piece to pick (a
// Gamma field, a Trails direction from the one head, a Lattice return): it is always selected. Each renderer converts
// its game's view into this shape in a few lines (the server's shapes are the API's, docs/api.md); nothing here
// decides legality: an empty map is "nothing to play here", and the server answers every move it is sent.
//
//   const selection = QuadrilleBoard.selection();
//   selection.set(legal)        // the position's targets; the selected source stays selected while it still moves
//   selection.select(from) / toggle(from) / clear(); selection.selected
//   selection.sources()         // the sources a player may pick (the "movable" pieces)
//   selection.targets()         // Map to -> the selected source's moves that end there (the green cells)
//   selection.movesTo(to)       // those moves ([] when `to` is no target)
(function () {
  "use strict";
  const Board = (window.QuadrilleBoard = window.QuadrilleBoard || {});
  const FREE = ""; // the source of the moves that have no piece to pick

  // A Map of the one shape from [source, moves] pairs; a pair without moves is left out.
  function legalMap(pairs) {
    const map = new Map();
    for (const [from, moves] of pairs) if (moves && moves.length) map.set(String(from), moves);
    return map;
  }

  function selection() {
    let legal = new Map();
    let picked = null;
    let byTarget = null; // the selected source's moves by target, made once per change

    const current = () => (picked != null ? picked : legal.has(FREE) ? FREE : null);
    const changed = () => { byTarget = null; };

    const self = {
      FREE,
      get selected() { const s = current(); return s === FREE ? null : s; },
      get legal() { return legal; },
      set(next) {
        legal = next || new Map();
        if (picked != null && !legal.has(picked)) picked = null;
        changed();
      },
      isSource: (from) => from != null && from !== FREE && legal.has(String(from)),
      sources: () => [...legal.keys()].filter((from) => from !== FREE),
      movesFrom: (from) => legal.get(String(from)) || [],
      select(from) {
        picked = self.isSource(from) ? String(from) : null;
        changed();
        return picked;
      },
      toggle(from) { return self.select(picked === String(from) ? null : from); },
      clear() { picked = null; changed(); },
      targets() {
        if (byTarget) return byTarget;
        byTarget = new Map();
        const from = current();
        for (const entry of from != null ? legal.get(from) || [] : []) {
          if (!byTarget.has(entry.to)) byTarget.set(entry.to, []);
          byTarget.get(entry.to).push(entry);
        }
        return byTarget;
      },
      movesTo: (to) => self.targets().get(String(to)) || [],
    };
    return self;
  }

  // A cell's key in the shape: "x,y".
  const key = (x, y) => `${x},${y}`;

  Object.assign(Board, { selection, legalMap, key });
})();
