// Towers' pictures and words (towers.js draws with them): the stacks of discs as the template's stack() macro draws
// them, the cells' names, the move points' bars, the marks of the last moves, and the auto-end preference.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Towers = (window.QuadrilleTowers = window.QuadrilleTowers || {});
  const NAMES = { 1: I18n.t("Blue"), 2: I18n.t("Red") };
  const MAX_DISCS = 6;
  const AUTO_END_KEY = "quadrille.towers.autoEnd";
  const MOVE_RE = /^m(\d+),(\d+)>(\d+),(\d+):(\d+)$/;
  const CROWN = '<svg class="crown" viewBox="0 0 24 16" aria-hidden="true"><path d="M2 14 L1 4 L7 8 L12 1 L17 8 L23 4 L22 14 Z"/></svg>';
  const LOCK = '<span class="lock-mark" aria-hidden="true"><svg viewBox="0 0 16 16"><rect x="3" y="7" width="10" height="8" rx="1.5"/><path d="M5 7 V5 a3 3 0 0 1 6 0 V7" fill="none" stroke-width="2"/></svg></span>';

  // "3 move points", "1 pawn": the counts the info line says, with each language's plurals
  const WORDS = {
    "move point": (k) => I18n.n("{count} move point", "{count} move points", k, { count: k }),
    pawn: (k) => I18n.n("{count} pawn", "{count} pawns", k, { count: k }),
    point: (k) => I18n.n("{count} point", "{count} points", k, { count: k }),
  };
  const plural = (k, word) => WORDS[word](k);

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

  // The cells a move string's tower left and reached, by index (idx(x, y)).
  function movedCells(moves, idx) {
    const out = new Set();
    for (const m of moves || []) {
      const g = MOVE_RE.exec(m);
      if (g) { out.add(idx(+g[1], +g[2])); out.add(idx(+g[3], +g[4])); }
    }
    return out;
  }

  // The last move stays marked: the actions of the turn under way, else those of the turn before.
  function lastActions(view, idx) {
    const moves = (view.turn_moves || []).some((m) => MOVE_RE.test(m)) ? view.turn_moves : view.previous_turn;
    const from = new Set(), to = new Set();
    for (const m of moves || []) {
      const g = MOVE_RE.exec(m);
      if (g) { from.add(idx(+g[1], +g[2])); to.add(idx(+g[3], +g[4])); }
    }
    for (const i of to) from.delete(i); // a tower that moved twice: its last stop is where it is now
    return { from, to };
  }

  // The cells a tower passes over from `from` to `to` ([x, y] each), by index; none when they are not in line.
  function pathCells(from, to, idx) {
    const [x0, y0] = from, [x1, y1] = to;
    const out = [];
    if (x0 !== x1 && y0 !== y1) return out;
    const dx = Math.sign(x1 - x0), dy = Math.sign(y1 - y0);
    for (let x = x0 + dx, y = y0 + dy; x !== x1 || y !== y1; x += dx, y += dy) out.push(idx(x, y));
    return out;
  }

  // The move just played glides from its old cell: its rectangle is taken before the repaint (glideFrom), the
  // tower slides from there after it (glide); an import pops up on the master.
  function glideFrom(move, cells, idx) {
    const g = MOVE_RE.exec(move);
    if (g) {
      const from = cells[idx(+g[1], +g[2])];
      return from ? { kind: "move", to: idx(+g[3], +g[4]), from: from.getBoundingClientRect() } : null;
    }
    if (/^i\d+$/.test(move)) return { kind: "import" };
    return null;
  }
  function glide(before, cells, view, idx) {
    const Motion = window.QuadrilleMotion;
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

  // The dragged tower's picture: `count` pawns of `owner`, crowned when the master moves whole; `size` px wide.
  function ghost(owner, count, master, size) {
    const element = document.createElement("div");
    element.className = `tw-ghost p${owner}${master ? " master" : ""}`;
    element.style.setProperty("--size", size + "px");
    element.innerHTML = stackHTML(count, master, owner);
    return element;
  }

  // The move points of each side: how many are left and used, and (pending) those the hovered move would spend.
  Towers.paintBars = function paintBars(area, view, ctx, pending) {
    const $ = (id) => area.querySelector("#" + id);
    for (const p of [1, 2]) {
      const bar = $("tw-bar-" + p);
      if (!bar) continue;
      const pts = view.points[p - 1];
      const total = pts.unused + pts.used;
      bar.classList.toggle("to-move", !view.over && view.current === p);
      bar.classList.toggle("winner", view.winner === p);
      const you = ctx.mySeats().includes(p) && ctx.mySeats().length === 1;
      bar.querySelector(".tw-who").textContent = NAMES[p] + (you ? ` ${I18n.t("(you)")}` : "");
      bar.querySelector(".tw-unused").textContent = pts.unused;
      bar.querySelector(".tw-used").textContent = pts.used;
      const track = bar.querySelector(".tw-track");
      track.style.setProperty("--t", Math.max(total, 1));
      track.setAttribute("aria-label", I18n.n("{count} move point left, {used} used", "{count} move points left, {used} used",
        pts.unused, { count: pts.unused, used: pts.used }));
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
  };

  // A cell's tower (t: {owner, height, master, locked} or none), its name for assistive technology ("c2: Blue pawn")
  // and the coordinates drawn on it; redrawn only when one of them changed (data-sig).
  Towers.paintCell = function paintCell(cell, t, name, coords, flipped) {
    const sig = (t ? `${t.owner}.${t.height}.${t.master ? 1 : 0}.${t.locked ? 1 : 0}` : "") + (flipped ? "|f" : "|b");
    if (cell.dataset.sig === sig) return;
    cell.innerHTML = (t ? stackHTML(t.height, t.master, t.owner) + (t.locked ? LOCK : "") : "") + coords;
    cell.dataset.sig = sig;
    const what = !t ? I18n.t("empty")
      : (t.height > 1 ? I18n.t("{side} tower of {height}", { side: NAMES[t.owner], height: t.height })
        : I18n.t("{side} pawn", { side: NAMES[t.owner] }))
        + (t.master ? `, ${I18n.t("master")}` : "") + (t.locked ? `, ${I18n.t("locked")}` : "");
    cell.setAttribute("aria-label", `${name}: ${what}`);
  };

  // The buttons under the board: Import (how many), Undo, End turn or Pass, the auto-end box, the pawns to move.
  Towers.paintControls = function paintControls(area, ctx, { can, view, importCount, autoEnd, sel, split, nothingLeft }) {
    const $ = (id) => area.querySelector("#" + id);
    const legal = view.legal;
    const imp = $("tw-import"), undo = $("tw-undo"), end = $("tw-end");
    imp.disabled = !can || !legal.can_import;
    imp.textContent = importCount && importCount > 1 ? I18n.t("Import {count}", { count: importCount }) : I18n.t("Import");
    undo.disabled = !can || !view.can_undo;
    end.disabled = !can || !legal.can_end;
    end.textContent = legal.end_draws ? I18n.t("Pass (draws)") : view.turn_moves.length ? I18n.t("End turn") : I18n.t("Pass");
    end.title = I18n.t("End your turn (E)");
    end.classList.toggle("salient", can && nothingLeft);
    end.classList.toggle("draws", can && legal.end_draws);
    $("tw-auto-end").checked = autoEnd;
    $("tw-auto-end").closest("label").hidden = !ctx.mySeats().length;
    const count = $("tw-count");
    count.hidden = !split;
    if (sel) {
      $("tw-count-value").textContent = sel.count;
      $("tw-count-max").textContent = sel.src.height;
      $("tw-less").disabled = sel.count <= 1;
      $("tw-more").disabled = sel.count >= sel.src.height;
    }
      };

  // The info line while a tower is picked up: what moves, and where to (the hovered target's cost) or what then.
  // name(x, y): a cell's name; any: whether some target takes that many pawns.
  Towers.movingText = function movingText(sel, target, name, any) {
    const h = sel.src.height, [x, y] = sel.src.from;
    const cell = name(x, y);
    const moving = sel.count !== h ? plural(sel.count, "pawn") : h > 1 ? I18n.t("the whole tower") : I18n.t("it");
    const text = h > 1 ? I18n.t("Tower of {height} at {cell}: moving {moving}", { height: h, cell, moving })
      : I18n.t("Pawn at {cell}: moving {moving}", { cell, moving });
    if (target) {
      const cost = target.distance * sel.count;
      return text + " " + I18n.n("to {target} costs {distance} × {pawns} = {count} point.",
        "to {target} costs {distance} × {pawns} = {count} points.", cost,
        { target: name(target.to[0], target.to[1]), distance: target.distance, pawns: sel.count, count: cost });
    }
    return text + (any ? I18n.t("; the green cells are where it can go.") : I18n.t("; no cell can take that many: choose another number."));
  };

  Object.assign(Towers, { NAMES, MOVE_RE, LOCK, FILES, plural, cellName, pawns, stackHTML, readPref, writePref,
    movedCells, lastActions, pathCells, ghost, glideFrom, glide });
})();
