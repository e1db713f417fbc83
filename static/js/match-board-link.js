// The match page's link to the analysis board (/analysis/from/<match>?ply=k): on the position shown, once the game
// may be analysed (it is over, or it is not an online game: an online game under way never is, so that the
// board never helps a player during a game).
(function () {
  "use strict";
  window.Quadrille.part("board-link", (page) => {
    const link = document.getElementById("analysis-board-link");
    if (!link) return {};
    const row = link.parentElement;
    const shown = () => {
      const ply = page.replayPly();
      return ply === null ? page.state().moves.length : ply;
    };
    const aim = () => { link.href = `/analysis/from/${encodeURIComponent(page.matchId)}?ply=${shown()}`; };
    link.addEventListener("click", aim); // the position stepped to, even while its STATE is on its way
    function render(state) {
      row.hidden = !(state.outcome || state.mode !== "online");
      aim();
    }
    return { render };
  });
})();
