// Moves you can follow: the small animations the game renderers play when a move lands (the match page and the
// tutorials load this before the renderer). Each is at most STEP_MS long, made with the Web Animations API on
// the renderer's own elements (nothing is added to the page), and none plays under prefers-reduced-motion:
// the last-move marks, which stay, tell the move then.
(function () {
  "use strict";
  const STEP_MS = 220;
  const motion = (window.QuadrilleMotion = { STEP_MS, started: 0, reduced, slide, pop, sequence });

  function reduced() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function run(el, frames, options) {
    if (!el || !el.animate || reduced()) return null;
    motion.started += 1; // how many animations the page has started (tests read it)
    return el.animate(frames, { duration: STEP_MS, easing: "ease-out", ...options });
  }
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

  // `el` already sits where the move ended: it starts from the rectangle `from` (where it was) and glides home.
  function slide(el, from, options) {
    if (!el || !from) return null;
    const [x1, y1] = centre(el.getBoundingClientRect()), [x0, y0] = centre(from);
    if (Math.abs(x1 - x0) < 1 && Math.abs(y1 - y0) < 1) return null;
    return run(el, [{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "none" }],
      { ...options, composite: "add" });
  }

  // A field just claimed grows into place.
  function pop(el, options) {
    return run(el, [{ transform: "scale(.35)", opacity: 0.4 }, { transform: "none", opacity: 1 }], options);
  }

  // Several elements one after another within one step (a trail's claimed cells, a jump's path).
  function sequence(els, animate) {
    const each = STEP_MS / Math.max(els.length, 1);
    els.forEach((el, k) => animate(el, { duration: Math.max(each * 1.6, 60), delay: k * each * 0.8, fill: "backwards" }));
  }
})();
