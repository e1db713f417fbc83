// Race to Ten's renderer (docs/new-game.md): it draws the row of points the server sends and turns a click on
// one of the two points after the count, or the key 1 or 2, into a move. It never decides legality.
(function () {
  "use strict";
  const NAMES = { 1: "Blue", 2: "Red" };
  Quadrille.register("race", {
    seatLabel: (seat, state) => (state && state.seat_names && state.seat_names[seat - 1]) || NAMES[seat],
    reasonText: (reason, outcome, names) => reason === "goal" ? `${names[outcome.winners[0] - 1]} reached the goal.` : undefined,
    mount(area, ctx) {
      let view = null;
      area.addEventListener("click", (event) => {
        const cell = event.target.closest(".cell");
        // a point after the count: the step that reaches it (the server refuses a step it does not allow)
        if (cell && view && Number(cell.dataset.point) > view.total) ctx.play(String(Number(cell.dataset.point) - view.total));
      });
      function draw(next) {
        view = next;
        for (const cell of area.querySelectorAll(".race-board .cell")) {
          const point = Number(cell.dataset.point), seat = view.path[point - 1];
          const step = String(point - view.total);
          const target = view.legal.includes(step) && ctx.canPlay();  // the player's own turn only
          cell.className = "cell" + (seat ? ` p${seat}` : "") + (target ? " green" : "");
          cell.setAttribute("aria-label", `${point}: ${seat ? NAMES[seat] + "'s" : target ? "a move can reach it" : "free"}`);
        }
      }
      function key(event) {
        if (!view || view.turn == null || !/^[0-9]$/.test(event.key)) return false;
        ctx.play(event.key);
        return true;
      }
      return { draw, key };
    },
  });
})();
