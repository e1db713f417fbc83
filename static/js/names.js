// How a page writes a person's name (quadrille/names.py has the rules a name passed): always as text, isolated
// in <bdi> so that a right-to-left name cannot reorder the words around it, and, for a seat an account holds
// (the STATE's `"account": true`), as a link to the player's profile with a mark that no guest's name can have.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\uD802[\uDC00-\uDFFF]|\uD83A[\uDC00-\uDDFF]/;
  // The server names a seat nobody named "Player 2" (quadrille/matches/seating.py), in English in every viewer's
  // STATE; the page says it in its own language. (An account's name has no space, so it is never one of these.)
  const DEFAULT_NAME = /^Player (\d+)$/;
  const Names = {
    // A name as the page shows it: a seat's default name in the page's language, any other as it was typed.
    shown(name) {
      const found = DEFAULT_NAME.exec(name || "");
      return found ? I18n.t("Player {number}", { number: Number(found[1]) }) : name;
    },
    // A <bdi> holding the name.
    bdi(name) {
      const node = document.createElement("bdi");
      node.textContent = Names.shown(name);
      return node;
    },
    // A seat's player (a STATE seat entry): the name; an account's seat links to its profile, marked.
    seat(entry, fallback) {
      const name = entry.name || fallback || "";
      if (!entry.account) return Names.bdi(name);
      const link = document.createElement("a");
      link.href = `/players/${encodeURIComponent(name)}`;
      link.className = "account-name";
      link.append(Names.bdi(name));
      const mark = document.createElement("span");
      mark.className = "account-mark";
      mark.title = I18n.t("A player with an account");
      mark.append("✔");
      const words = document.createElement("span");
      words.className = "sr-only";
      words.textContent = " " + I18n.t("(account)");
      mark.append(words);
      const both = document.createDocumentFragment();
      both.append(link, mark);
      return both;
    },
    // The name isolated inside plain text (a message line, the tab's title, a notification), where no element
    // can be: Unicode's first-strong isolate and its closing mark, <bdi>'s equivalent in text. Only a name with
    // right-to-left letters needs them on these left-to-right pages (the server refuses the override marks).
    isolate(name) {
      name = Names.shown(name);
      return RIGHT_TO_LEFT.test(name) ? `\u2068${name}\u2069` : name;
    },
    // Several names joined with `between`, each isolated: a fragment to append.
    list(names, between) {
      const all = document.createDocumentFragment();
      names.forEach((name, i) => {
        if (i) all.append(between || ", ");
        all.append(typeof name === "string" ? Names.bdi(name) : name);
      });
      return all;
    },
  };
  window.QuadrilleNames = Names;
})();
