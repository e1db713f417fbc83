// The match page's actions on the match as a whole: take back, restart, resign, rematch, start, a new game,
// fullscreen, opening a saved file and leaving. A part of the match page (match.js). Nothing that discards moves
// happens on one click or key: it asks first, in a dialog that Esc cancels (match-dialogs.js: page.confirm).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  const Tokens = window.QuadrilleTokens;

  window.Quadrille.part("actions", (page) => {
    const Quadrille = window.Quadrille;
    const { root, embed, emit, message } = page;

    page.restart = () => {
      const state = page.state();
      if (!state.moves.length || state.mode === "online" || !page.mySeats().length) return;
      const n = state.moves.length;
      page.confirm(I18n.n("Restart the game? The move played so far will be lost.",
        "Restart the game? The {count} moves played so far will be lost.", n, { count: n }), I18n.t("Restart"),
        () => emit("rewind", { to: 0 }));
    };
    $("takeback").addEventListener("click", () => emit("takeback", {}));
    $("restart").addEventListener("click", page.restart);
    $("resign").addEventListener("click", () => page.confirm(
      page.state().mode === "ai" ? I18n.t("Resign this game? The computer wins.")
        : I18n.t("Resign this game? Your opponent wins."), I18n.t("Resign"),
      () => emit("resign", {})));

    page.offerRematch = () => {
      emit("rematch", {}, (ack) => {
        if (!ack.ok) return;
        if (ack.match) { Tokens.set(ack.match, ack.token); page.go(ack.match); }
        else message(I18n.t("Rematch offered; waiting for the other players."));
      });
    };
    $("rematch").addEventListener("click", page.offerRematch);
    $("start-match").addEventListener("click", () => emit("start", {}));

    page.newGame = () => {
      const state = page.state();
      const go = () => (Quadrille.newGame ? Quadrille.newGame(page) : (window.location.href = "/"));
      if (state.outcome || !page.mySeats().length || !state.moves.length) return go();
      page.confirm(I18n.t("Start a new game? This one stays saved under its address."), I18n.t("New game"), go);
    };
    $("new-game").addEventListener("click", page.newGame);

    if ($("fullscreen")) {
      $("fullscreen").addEventListener("click", () => {
        if (document.fullscreenElement) document.exitFullscreen();
        else root.requestFullscreen().catch(() => message(I18n.t("This frame may not go fullscreen.")));
      });
    }
    $("import-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      try {
        const created = await window.QuadrilleFiles.importFile(file);
        page.go(created.match);
      } catch (error) {
        message(error.reason || I18n.t("That file is not a saved match."), "error");
      }
    });

    page.leave = () => {
      if (embed) return;
      const state = page.state();
      const running = page.mySeats().length && !state.outcome && state.mode === "online" && state.started;
      page.confirm(running
        ? I18n.t("Leave the game? The others will see that you left; after {duration} they may claim the game.",
          { duration: I18n.duration(state.disconnect_timeout) })
        : I18n.t("Leave this match? It stays saved; you can come back with its address."), I18n.t("Leave"),
      () => { window.location.href = "/"; }, I18n.t("Stay"));
    };
    return {};
  });
})();
