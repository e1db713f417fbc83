// Dialogs of the match page: questions with choices (ask), confirmations before anything that discards moves
// (confirm), both the pages' one question dialog (dialog.js), and the list of keys. Each is a native <dialog>.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  window.Quadrille.part("dialogs", (page) => {
    const { ask, confirm } = window.QuadrilleDialog; // static/js/dialog.js

    page.ask = ask;
    page.confirm = confirm;
    window.Quadrille.ask = ask;

    const keys = $("keys");
    const showKeys = () => { if (!keys.open) keys.showModal(); };
    $("keys-button").addEventListener("click", showKeys);
    $("keys-link").addEventListener("click", showKeys);
    $("keys-close").addEventListener("click", () => keys.close());

    return {
      key(event) {
        if (event.key === "?") { showKeys(); return true; }
        return false;
      },
    };
  });
})();
