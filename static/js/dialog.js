// The one question dialog of the pages (templates/question_dialog.html): a native <dialog> with a sentence and a
// row of buttons. Esc cancels it and the focus stays inside while it is open. Used by the match page
// (match-dialogs.js), the tutorials (tutorial.js) and the renderers (Quadrille.ask).
//   ask(text, [[label, action or null], ...]): the first choice is the primary one, the last the safe one (it takes
//   the focus); a choice's action runs after the dialog closes.
//   confirm(text, yes, action, no = "Cancel"): ask with two choices.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);

  function ask(text, choices) {
    const dialog = $("dialog");
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

  function confirm(text, yes, action, no = I18n.t("Cancel")) {
    ask(text, [[yes, action], [no, null]]);
  }

  window.QuadrilleDialog = { ask, confirm };
})();
