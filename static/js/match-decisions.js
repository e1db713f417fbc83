// Decisions asked of the player, seen and heard. What they say is decided elsewhere (match-offers.js fills the
// bars of #decisions: another player's take-back or draw offer, the claims once an opponent has left; match.js
// shows "Take my seat back" to a player whose seat the computer plays; match-result.js words the rematch on the
// result screen); the stylesheet keeps the dock in the window. This part:
// - says each new decision once, in the assertive region #decision-alert ("Red offers a draw. Choose: Accept or
//   Decline."), and again only if it goes away and comes back; a countdown ticking in its words is not new;
// - keeps the keyboard's place: a bar redrawn under the focus gives it back to the same choice, and an answered
//   decision hands the focus to the status line instead of dropping it to the top of the page.
// It never moves the focus to a decision by itself: the player may be in the middle of a move.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);

  // "A, B or C", in the page's language
  const either = (words) => new Intl.ListFormat(I18n.locale, { type: "disjunction" }).format(words);

  window.Quadrille.part("decisions", (page) => {
    const dock = $("decisions");
    const region = $("decision-alert");
    let said = new Set(); // the decisions on screen at the last look, by what they ask and offer
    let focused = null;   // {bar, label}: the dock's choice that has the keyboard

    // The bars that ask something (they have buttons): their words without the buttons' own, and the choices.
    function barDecisions() {
      if (!$("result").hidden) return []; // the result screen covers them and asks itself
      return [...dock.querySelectorAll(".notice")].filter((bar) => !bar.hidden && bar.querySelector("button"))
        .map((bar) => {
          const choices = [...bar.querySelectorAll("button")].map((b) => b.textContent.trim());
          const copy = bar.cloneNode(true);
          for (const b of copy.querySelectorAll("button")) b.remove();
          return { id: bar.id, words: copy.textContent.replace(/\s+/g, " ").trim(), choices };
        });
    }

    // The result screen's rematch, when another player offers it.
    function rematchDecision() {
      const state = page.state();
      const offered = ((state.offers && state.offers.rematch) || []).filter((s) => !page.mySeats().includes(s));
      const button = $("play-again");
      if (!state.outcome || page.role() !== "player" || !offered.length || !button || button.disabled) return [];
      const words = I18n.n("{players} offers a rematch.", "{players} offer a rematch.", offered.length,
        { players: page.names(offered) });
      return [{ id: "result", words, choices: [button.textContent] }];
    }

    // What identifies a decision: where it is, its words without their numbers (a countdown), its choices.
    const keyOf = (d) => `${d.id}|${d.words.replace(/\d+/g, "#")}|${d.choices.join("|")}`;

    // The bar around "Take my seat back" shows when the core shows the button (match.js's computer controls).
    function followReclaim() {
      const hide = $("reclaim").hidden;
      if ($("reclaim-bar").hidden !== hide) $("reclaim-bar").hidden = hide; // (setting it unchanged would loop)
    }

    function look() {
      followReclaim();
      const now = [...barDecisions(), ...rematchDecision()];
      const fresh = now.filter((d) => !said.has(keyOf(d)));
      said = new Set(now.map(keyOf));
      if (fresh.length) {
        const text = fresh.map((d) => I18n.t("{words} Choose: {choices}.", { words: d.words, choices: either(d.choices) }))
          .join(" ");
        region.textContent = ""; // the same words again are said again
        window.setTimeout(() => { region.textContent = text; }, 30);
      }
      keepFocus();
    }

    dock.addEventListener("focusin", (event) => {
      const b = event.target.closest("button");
      focused = b ? { bar: b.closest(".notice").id, label: b.textContent } : null;
    });
    dock.addEventListener("focusout", (event) => {
      // The player went elsewhere (another control, a click on the board): forget. A button redrawn away under
      // the focus is no longer in the page: that place is kept for keepFocus.
      const left = event.target;
      if (event.relatedTarget && !dock.contains(event.relatedTarget)) focused = null;
      else {
        window.setTimeout(() => { if (left.isConnected && !dock.contains(document.activeElement)) focused = null; }, 0);
      }
    });

    function keepFocus() {
      if (!focused || (document.activeElement && document.activeElement !== document.body)) return;
      const bar = $(focused.bar);
      const same = bar && !bar.hidden
        && [...bar.querySelectorAll("button")].find((b) => b.textContent === focused.label);
      if (same) { same.focus({ preventScroll: true }); return; }
      focused = null;
      $("status").focus({ preventScroll: true }); // answered: the keyboard goes on from the top of the board
    }

    new MutationObserver(look).observe(dock, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["hidden"] });
    return { render: look, presence: look };
  });
})();
