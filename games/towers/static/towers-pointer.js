// Towers' pointer input (towers.js mounts it): drag a tower of yours (mouse, pen or touch) or tap it and tap the
// target; a right-drag moves one pawn; with a tower picked up, the mouse's hover previews the path and the cost.
// It keeps the press and the dragged picture; what a press means (pick up, drop, explain) is the renderer's, which
// picks among the server's targets (static/js/board/selection.js) and never decides legality here.
(function () {
  "use strict";
  const Towers = (window.QuadrilleTowers = window.QuadrilleTowers || {});
  const DRAG_START = 6; // pixels before a press becomes a drag

  // r: the renderer's side: ready(), interactive(), indexOf(cell) (null: not a cell of the board), pressed(i) (the
  // cursor follows the pointer), selected() ({i, src, count} or null), sourceAt(i), targetAt(i), select(src, count),
  // deselect(), attempt(i, how), explain(i), hovered(), setHover(i, paint), paint(), ghost() (the dragged picture).
  Towers.pointer = function pointer(r) {
    let press = null; // the press in progress
    let ghost = null;

    function cellIndexAt(board, clientX, clientY) {
      const el = document.elementFromPoint(clientX, clientY);
      const cell = el && el.closest ? el.closest(".tw-board .cell") : null;
      if (!cell || !board.contains(cell)) return null;
      return r.indexOf(cell);
    }

    function startDrag(event) {
      press.dragging = true;
      ghost = r.ghost();
      document.body.appendChild(ghost);
      moveGhost(event);
      r.paint();
    }
    function moveGhost(event) {
      if (!ghost) return;
      ghost.style.left = event.clientX + "px";
      ghost.style.top = event.clientY + "px";
    }
    function end() {
      if (ghost) { ghost.remove(); ghost = null; }
      press = null;
    }

    function down(board, event) {
      if (!r.ready() || event.button > 2 || event.button === 1) return;
      board.focus({ preventScroll: true });
      const i = cellIndexAt(board, event.clientX, event.clientY);
      r.pressed(i);
      if (i == null) return;
      if (!r.interactive()) { r.paint(); return; }
      event.preventDefault(); // no text selection, no emulated mouse quirks
      const right = event.button === 2;
      const sel = r.selected();
      const src = r.sourceAt(i);
      const wasSelected = !!sel && sel.i === i;
      const isTarget = !!sel && !!r.targetAt(i);
      press = { i, x: event.clientX, y: event.clientY, pointer: event.pointerId, src, right, wasSelected,
                deferred: isTarget, dragging: false };
      try { board.setPointerCapture(event.pointerId); } catch (e) { /* synthetic events */ }
      if (src && !isTarget && (!wasSelected || right)) r.select(src, right ? 1 : null);
      else r.paint();
    }

    function move(board, event) {
      if (!r.ready()) return;
      if (press && press.pointer === event.pointerId) {
        if (!press.dragging && press.src && Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG_START) {
          const sel = r.selected();
          if (!sel || sel.i !== press.i) r.select(press.src, press.right ? 1 : null);
          startDrag(event);
        }
        if (press.dragging) {
          moveGhost(event);
          r.setHover(cellIndexAt(board, event.clientX, event.clientY), true);
        }
        return;
      }
      if (r.selected() && event.pointerType === "mouse") r.setHover(cellIndexAt(board, event.clientX, event.clientY), true);
    }

    function release(board, event) {
      if (!press || press.pointer !== event.pointerId) return;
      const p = press;
      const i = cellIndexAt(board, event.clientX, event.clientY);
      end();
      if (p.dragging) {
        r.setHover(null, false);
        if (i != null && r.selected()) r.attempt(i, "drag");
        else r.paint();
        return;
      }
      if (i !== p.i) { r.paint(); return; } // pressed and slid off without a drag: nothing
      if (p.deferred) { r.attempt(i, "click"); return; }
      if (p.src) {
        if (p.wasSelected && !p.right) r.deselect();
        return;
      }
      if (r.selected()) { r.attempt(i, "click"); return; }
      r.explain(i);
    }

    function listen(board) {
      board.addEventListener("contextmenu", (event) => event.preventDefault()); // right-drag = one pawn
      board.addEventListener("pointerdown", (event) => down(board, event));
      board.addEventListener("pointermove", (event) => move(board, event));
      board.addEventListener("pointerup", (event) => release(board, event));
      board.addEventListener("pointercancel", () => { end(); r.setHover(null, false); r.paint(); });
      board.addEventListener("pointerleave", (event) => {
        if (!press && event.pointerType === "mouse" && r.hovered() != null) r.setHover(null, true);
      });
      board.addEventListener("focus", () => r.paint());
      board.addEventListener("blur", () => r.paint());
    }

    return { listen, end, dragging: () => !!(press && press.dragging) };
  };
})();
