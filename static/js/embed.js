// Embedded games: /embed/new/<game>?options starts a local game in an iframe, and finds it again.
//
// The frame remembers, in its own storage (localStorage of this site inside the host page: no cookie, so it
// works where third-party cookies are blocked), the last local match it played per game and options. On a
// reload of the host page, /embed/new/<game> reopens that match where the reader left it; the embedded match's
// "New game" button starts another with the same options and remembers that one instead. Embedded games are
// local: never listed publicly.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Tokens = window.QuadrilleTokens;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  // One key per game and options: options in a fixed order, so equal options give the same key.
  function keyOf(game, options) {
    const ordered = Object.keys(options).sort().map((name) => [name, options[name]]);
    return `quadrille.embed.${game}:${JSON.stringify(ordered)}`;
  }

  function remember(key, match) {
    const store = storage();
    if (!store) return;
    store.setItem(key, match);
    store.setItem(`quadrille.embed.launch.${match}`, key);
  }

  // Open an embedded match. Where this frame's storage is blocked, the seat token rides along in the address's
  // fragment (never sent to the server, never logged); the match page takes it out at once.
  function open(match) {
    const token = Tokens.get(match);
    const carry = !Tokens.persistent() && token ? `#seat=${encodeURIComponent(token)}` : "";
    // an embed follows its ?lang= (the host page's choice) into the match it opens
    const lang = new URLSearchParams(window.location.search).get("lang");
    window.location.replace(`/embed/${match}${lang ? `?lang=${encodeURIComponent(lang)}` : ""}${carry}`);
  }

  async function create(game, options) {
    const response = await fetch("/api/matches", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game, options, mode: "local" }),
    });
    const created = await response.json().catch(() => ({ reason: I18n.t("The server answered oddly.") }));
    if (!response.ok) throw created;
    Tokens.remember(created);
    return created.match;
  }

  // The remembered match, if it still exists and this frame still holds its token.
  async function remembered(key) {
    const store = storage();
    const match = store && store.getItem(key);
    if (!match || !Tokens.get(match)) return null;
    const response = await fetch(`/api/matches/${encodeURIComponent(match)}`);
    return response.ok ? match : null;
  }

  async function launch(root) {
    const game = root.dataset.game;
    const options = JSON.parse(document.getElementById("embed-options").textContent);
    const key = keyOf(game, options);
    try {
      const match = (await remembered(key)) || (await create(game, options));
      remember(key, match);
      open(match);
    } catch (error) {
      document.getElementById("embed-status").textContent = "";
      document.getElementById("embed-error").textContent = error.reason || I18n.t("The game could not be started.");
    }
  }

  // The embedded match page's "New game": the same game and options, remembered for this frame.
  async function newGame(page) {
    const state = page.state();
    const store = storage();
    const key = (store && store.getItem(`quadrille.embed.launch.${page.matchId}`)) || keyOf(state.game, state.options);
    try {
      const match = await create(state.game, state.options);
      remember(key, match);
      open(match);
    } catch (error) {
      page.message(error.reason || I18n.t("The game could not be started."), "error");
    }
  }

  window.QuadrilleEmbed = { newGame, keyOf };
  const root = document.getElementById("embed-launch");
  if (root) launch(root);
})();
