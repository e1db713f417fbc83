// The lobby: four game tiles, each opening the new-game dialog (static/js/new-game.js) on one of three ways to
// play (a friend, the computer, this screen); by-name play, saved games and live games below. Matches are made
// through the HTTP API (docs/api.md); the server checks every option.
(function () {
  "use strict";
  const Tokens = window.QuadrilleTokens;
  const $ = (id) => document.getElementById(id);
  const I18n = window.QuadrilleI18n;

  const api = window.QuadrilleApi;  // the one JSON call (static/js/api.js)

  function enter(created) {
    Tokens.remember(created);
    window.location.href = `/m/${created.match}`;
  }

  // -- the new-game dialog (static/js/new-game.js): starting the game it describes -------------------------
  function computerSeats(f, options, demo) {
    const raw = f.querySelector("[name=ai-level]:checked").value;
    const level = /^\d+$/.test(raw) ? Number(raw) : raw; // 1-3, or a word such as "classic-1"
    const players = options.players || 2;
    const all = Array.from({ length: players }, (_, i) => i + 1);
    if (demo) return { seats: all, level };
    const you = f.querySelector("[name=ai-you]:checked");
    if (you) return { seats: all.filter((s) => s !== Number(you.value)), level };
    const count = Math.min(players - 1, Math.max(1, Number(f.querySelector("[name=ai-count]").value) || 1));
    return { seats: all.slice(players - count), level };
  }

  async function start(f, demo) {
    const options = NewGame.readOptions(f);
    const m = demo ? "ai" : NewGame.mode(f);
    const nameInput = f.querySelector(".player-name");
    if (nameInput && m === "online") Tokens.setName(nameInput.value.trim());
    const player = (m === "online" && nameInput && nameInput.value.trim()) || undefined;
    const body = { game: f.dataset.game, options, mode: m, player, clock: demo ? null : NewGame.readClock(f) };
    const visibility = f.querySelector("input[name=visibility]:checked");
    if (m === "online" && visibility) body.visibility = visibility.value;
    if (m === "online") body.side = NewGame.readSide(f); // first, second or random: the server seats the creator
    if (m === "ai") body.ai = computerSeats(f, options, demo);
    NewGame.busy(f, true);
    try {
      enter(await api("/api/matches", body));
    } catch (error) {
      NewGame.showError(f, error.reason || I18n.t("Could not start the game."));
      NewGame.busy(f, false);
    }
  }

  const NewGame = window.QuadrilleNewGame.mount({
    submit: start,
    opened(form) {
      const name = form.querySelector(".player-name");
      if (name && !name.value) name.value = Tokens.getName();
    },
  });
  const data = NewGame.data;
  const dialog = NewGame.dialog;
  for (const button of document.querySelectorAll(".tile [data-mode]")) {
    button.addEventListener("click", () => NewGame.open(button.closest(".tile").dataset.game, button.dataset.mode, button));
  }

  // -- by name, saved games, live games -----------------------------------------------------------------
  $("by-name").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = event.target;
    const name = $("match-name").value.trim();
    if (!name) { f.querySelector(".form-error").textContent = I18n.t("Type a match name first."); return; }
    try {
      const clock = ClockChoice.read(f, "by-name-clock");
      enter(await api("/api/matches/by-name", { name, game: $("by-name-game").value, player: Tokens.getName() || undefined, clock }));
    } catch (error) {
      f.querySelector(".form-error").textContent = error.reason || I18n.t("Could not join that match.");
    }
  });

  $("import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      enter(await window.QuadrilleFiles.importFile(file));
    } catch (error) {
      $("import-error").textContent = error.reason || I18n.t("That file is not a saved match.");
    }
  });

  function link(href, text, label, primary) {
    const a = document.createElement("a");
    a.href = href;
    a.className = "button" + (primary ? " primary" : "");
    a.textContent = text;
    a.setAttribute("aria-label", label);
    if (primary) a.dataset.join = "";
    return a;
  }

  // The list is read again every 20 s while the page is in view, so that a new open game shows up to join.
  const REFRESH = 20000;
  function loadRecent() {
    return api("/api/matches/recent").then(showRecent)
      .catch(() => { $("recent-list").replaceChildren(note(I18n.t("The list could not be loaded."))); });
  }
  loadRecent();
  // (Not while the dialog is open, nor under the keyboard's focus: nothing moves under the player.)
  setInterval(() => {
    if (!document.hidden && !dialog.open && !$("recent-list").contains(document.activeElement)) loadRecent();
  }, REFRESH);

  function note(text) {
    return Object.assign(document.createElement("li"), { className: "muted", textContent: text });
  }

  // A match of the list in words: "online, 12 moves" (the count in the page's language and its plurals).
  function modeWords(m) {
    const moves = I18n.n("{count} move", "{count} moves", m.moves, { count: m.moves });
    if (m.mode === "online") return I18n.t("online, {moves}", { moves });
    if (m.mode === "local") return I18n.t("on one screen, {moves}", { moves });
    if (m.mode === "ai") return I18n.t("against the computer, {moves}", { moves });
    return `${m.mode}, ${moves}`;
  }

  function showRecent(matches) {
    const list = $("recent-list");
    list.replaceChildren(...(matches.length ? [] : [note(I18n.t("No live games now."))]));
    // Open games with a free seat first (someone is waiting for a player), then the others to watch.
    const joinable = (m) => m.visibility === "open" && m.free_seats > 0;
    const shown = [...matches.filter(joinable), ...matches.filter((m) => !joinable(m))].slice(0, 8);
    for (const m of shown) {
      const li = document.createElement("li");
      li.className = "recent" + (joinable(m) ? " joinable" : "");
      li.dataset.match = m.id;
      const title = (data[m.game] && data[m.game].title) || m.game;
      const words = document.createElement("span");
      words.className = "recent-words";
      const name = document.createElement("b");
      name.textContent = title + (m.name ? ` · ${m.name}` : "");
      const more = document.createElement("span");
      more.className = "muted";
      more.textContent = " " + (joinable(m)
        ? I18n.n("a seat is free", "{count} seats are free", m.free_seats, { count: m.free_seats })
        : modeWords(m));
      words.append(name, more);
      li.appendChild(words);
      // The match page asks a joining player's name and takes the free seat (an open match needs no invite).
      const game = title + (m.name ? ` ${m.name}` : "");
      if (joinable(m)) li.appendChild(link(`/m/${m.id}`, I18n.t("Join"), I18n.t("Join {game}", { game }), true));
      li.appendChild(link(`/m/${m.id}${joinable(m) ? "#watch" : ""}`, I18n.t("Watch"), I18n.t("Watch {game}", { game }), false));
      list.appendChild(li);
    }
  }
})();
