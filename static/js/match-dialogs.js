// Dialogs of the match page: questions with choices (ask), confirmations before anything that discards moves
// (confirm), and the list of keys. Each is a native <dialog>: Esc cancels it, focus stays inside while open.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  window.Quadrille.part("dialogs", (page) => {
    const dialog = $("dialog");

    // choices: [[label, action or null], ...]; the last choice is the safe one and takes the focus.
    function ask(text, choices) {
      $("dialog-text").textContent = text;
      const actions = $("dialog-actions");
      actions.innerHTML = "";
      let safe = null;
      choices.forEach(([labelText, action], i) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = labelText;
        if (i === 0 && choices.length > 1) b.className = "primary";
        b.addEventListener("click", () => { dialog.close(); if (action) action(); });
        actions.appendChild(b);
        safe = b;
      });
      if (!dialog.open) dialog.showModal();
      if (safe) safe.focus();
    }

    function confirm(text, yes, action, no = "Cancel") {
      ask(text, [[yes, action], [no, null]]);
    }

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
