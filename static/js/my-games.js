// "My games": the player's games ("your turn" first; finished ones on request), the challenges waiting for
// them (live over Socket.IO; an accepted one of theirs takes them to its game), their own challenges, and the
// lobby's new-game dialog to challenge a player by name.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Players = window.QuadrillePlayers;
  const Tokens = window.QuadrilleTokens;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("my-games-data").textContent);

  const say = (text, kind) => { const box = $("games-message"); box.textContent = text || ""; box.className = "message " + (kind || ""); };
  const failed = (error) => say(error.message, "error");
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }
  // "5 minutes ago", in the page's language (Intl's relative times)
  function ago(seconds) {
    if (!seconds) return "";
    const s = Math.max(0, Date.now() / 1000 - seconds);
    const relative = new Intl.RelativeTimeFormat(I18n.locale, { numeric: "auto", style: "short" });
    if (s < 60) return relative.format(0, "second");
    if (s < 3600) return relative.format(-Math.round(s / 60), "minute");
    if (s < 86400) return relative.format(-Math.round(s / 3600), "hour");
    return relative.format(-Math.round(s / 86400), "day");
  }
  const number = (n) => new Intl.NumberFormat(I18n.locale, { useGrouping: false }).format(n); // ratings: 1512
  const joined = (items) => new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(items);
  const STATUS = { pending: I18n.t("pending"), accepted: I18n.t("accepted"), declined: I18n.t("declined"),
                   cancelled: I18n.t("cancelled"), started: I18n.t("started"), expired: I18n.t("expired") };
  const statusWord = (status) => STATUS[status] || status;
  const names = (list) => window.QuadrilleNames.list(list);  // each name in <bdi> (names.js)

  function status(game) {
    if (game.finished) {
      return { win: I18n.t("You won"), loss: I18n.t("You lost"), draw: I18n.t("Draw"), aborted: I18n.t("Aborted") }[game.result]
        || I18n.t("Over");
    }
    if (!game.started) return I18n.t("Waiting for players");
    const left = game.clock && game.clock.seconds_left;
    if (game.your_turn && left != null && game.clock.kind === "correspondence") {
      return I18n.t("Your turn: {time} left", { time: ClockChoice.daysText(left) });
    }
    if (game.your_turn) return I18n.t("Your turn");
    return game.turn_name ? I18n.t("{player} to move", { player: game.turn_name }) : "";
  }

  // What a rated game did to the player's rating: " +12" (the whole change said to a screen reader).
  function ratingChange(game) {
    const r = game.rating;
    if (!r) return "";
    const d = r.after - r.before;
    const change = d > 0 ? `+${number(d)}` : d < 0 ? `-${number(-d)}` : "±0";
    const title = I18n.t("Your rating: {before} → {after}", { before: number(r.before), after: number(r.after) });
    return el("span", { className: "rating-change", title },
      ` · ${change}`, el("span", { className: "sr-only", textContent: " " + I18n.t("rating, now {rating}", { rating: number(r.after) }) }));
  }

  function renderGames(games) {
    const list = $("games");
    list.replaceChildren();
    $("games-empty").hidden = games.length > 0;
    for (const game of games) {
      const against = game.opponents.map((o) => o.taken ? window.QuadrilleNames.bdi(o.name || o.side)
        : I18n.t("{side} (free)", { side: o.side }));
      const line = el("li", { className: "game-line" + (game.your_turn ? " your-turn" : "") + (game.finished ? " finished" : "") },
        el("a", { href: game.url, className: "game-open" },
          el("span", { className: "game-title" }, game.title),
          el("span", { className: "game-status" + (game.your_turn ? " mine" : "") }, status(game), ratingChange(game))),
        el("span", { className: "game-meta" },
          I18n.t("{sides} against", { sides: joined(game.sides) }) + " ", against.length ? names(against) : I18n.t("nobody yet"),
          game.rated ? ` · ${I18n.t("rated")}` : "", ` · ${game.options_words} · ${ago(game.updated)}`));
      // A finished game may be analysed by the computer: its page asks for the analysis at once (#analyse,
      // static/js/match-analysis.js).
      if (game.finished && game.result !== "aborted") {
        line.append(el("a", { href: `${game.url}#analyse`, className: "button game-analyse", textContent: I18n.t("Analyse"),
                              ariaLabel: I18n.t("Analyse this game of {game}", { game: game.title }) }));
      }
      line.dataset.match = game.match;
      list.append(line);
    }
  }

  function challengeText(c, incoming) {
    const first = { challenger: incoming ? I18n.t("{player} moves first", { player: c.from }) : I18n.t("you move first"),
                    opponent: incoming ? I18n.t("you move first") : I18n.t("they move first"),
                    random: I18n.t("first move at random") }[c.first];
    const who = incoming ? I18n.t("{player} challenges you to {game}", { player: c.from, game: c.title })
      : I18n.t("You challenged {players} to {game}", { players: joined(c.to.map((t) => t.name)), game: c.title });
    const clock = !c.clock ? "" : c.clock.kind === "realtime" ? ` · ${c.clock.minutes} + ${c.clock.increment || 0}`
      : ` · ${I18n.n("{count} day a move", "{count} days a move", c.clock.days, { count: c.clock.days })}`;
    return `${who} · ${c.options_words} · ${c.rated ? I18n.t("rated") : I18n.t("casual")} · ${first}${clock}`;
  }

  function button(label, handler, kind) {
    return el("button", { type: "button", className: kind || "", textContent: label, onclick: async (event) => {
      event.target.disabled = true;
      try { await handler(); } catch (error) { failed(error); event.target.disabled = false; }
    } });
  }

  function enterGame(match) {
    Tokens.set(match, Tokens.accountKey());
    window.location.assign(`/m/${match}`);
  }

  async function answer(c, action) {
    const result = await Players.api(`/api/challenges/${c.challenge}/${action}`, {});
    if ((action === "accept" || action === "start") && result.match) return enterGame(result.match);
    say({ accept: I18n.t("Accepted: the game starts when every player has."), decline: I18n.t("Declined."),
          cancel: I18n.t("Cancelled."), start: I18n.t("Started.") }[action], "good");
    await load();
  }

  function renderChallenges(challenges) {
    const incoming = $("incoming"), outgoing = $("outgoing");
    if (!incoming) return;
    incoming.replaceChildren();
    $("incoming-empty").hidden = challenges.incoming.length > 0;
    for (const c of challenges.incoming) {
      incoming.append(el("li", { className: "challenge" },
        el("span", {}, challengeText(c, true)),
        el("span", { className: "challenge-actions" },
          button(I18n.t("Accept"), () => answer(c, "accept"), "primary"), button(I18n.t("Decline"), () => answer(c, "decline")))));
    }
    outgoing.replaceChildren();
    $("outgoing-empty").hidden = challenges.outgoing.length > 0;
    for (const c of challenges.outgoing) {
      const answered = c.to.length > 1 ? ` (${c.to.map((t) => `${t.name}: ${statusWord(t.status)}`).join(", ")})` : "";
      const actions = el("span", { className: "challenge-actions" });
      if (c.status === "pending") {
        if (c.to.some((t) => t.status === "accepted")) actions.append(button(I18n.t("Start with those who accepted"), () => answer(c, "start")));
        actions.append(button(I18n.t("Cancel"), () => answer(c, "cancel")));
      }
      if (c.match) actions.append(el("a", { href: `/m/${c.match}`, className: "button-link", textContent: I18n.t("Open the game") }));
      outgoing.append(el("li", { className: `challenge ${c.status}` },
        el("span", {}, challengeText(c, false), " · ", el("strong", { className: "challenge-status" }, statusWord(c.status) + answered)), actions));
    }
  }

  async function load() {
    const finished = $("show-finished").checked ? "?finished=1" : "";
    try {
      if (data.account) {
        await Players.claimAll();
        const answer = await Players.api(`/api/me/games${finished}`);
        renderGames(answer.games);
        renderChallenges(answer.challenges);
      } else {
        const answer = await Players.api(`/api/me/games${finished}`, { tokens: Players.anonymousTokens() });
        renderGames(answer.games);
      }
    } catch (error) { failed(error); }
  }

  // -- the challenge: the lobby's new-game dialog (static/js/new-game.js) with a player's name -------------------
  const FIRST = { first: "challenger", second: "opponent", random: "random" }; // the dialog's side, as the API's `first`

  async function sendChallenge(f) {
    const input = f.querySelector("input[name=to]");
    const to = input.value.split(",").map((n) => n.trim()).filter(Boolean);
    if (!to.length) { input.focus(); return NewGame.showError(f, I18n.t("Type the name of the player to challenge.")); }
    const body = { to: to.length === 1 ? to[0] : to, game: f.dataset.game, options: NewGame.readOptions(f),
                   first: FIRST[NewGame.readSide(f)] || "random", rated: f.querySelector("input[name=rated]").checked,
                   clock: NewGame.readClock(f) };
    NewGame.busy(f, true);
    try {
      const made = await Players.api("/api/challenges", body);
      NewGame.dialog.close();
      say(I18n.t("Challenge sent to {players}.", { players: joined(made.to.map((t) => t.name)) }), "good");
      await load();
    } catch (error) { NewGame.showError(f, error.message); }
    NewGame.busy(f, false);
  }

  function searchPlayers(input) {
    let searching = null;
    input.addEventListener("input", () => {
      clearTimeout(searching);
      const typed = input.value.split(",").pop().trim();
      if (!typed) return;
      searching = setTimeout(async () => {
        try {
          const found = await Players.api(`/api/players?search=${encodeURIComponent(typed)}`);
          $("player-names").replaceChildren(...found.players.filter((n) => n !== data.account).map((n) => el("option", { value: n })));
        } catch (e) { /* the search is a help, not a must */ }
      }, 150);
    });
  }

  let NewGame = null;
  function setUpChallenges() {
    if (!$("challenge-games")) return;
    NewGame = window.QuadrilleNewGame.mount({
      submit: sendChallenge,
      focus: (form) => { const to = form.querySelector("input[name=to]"); return to.value ? null : to; },
    });
    const wanted = new URLSearchParams(window.location.search).get("challenge"); // a profile's "Challenge"
    for (const input of NewGame.dialog.querySelectorAll("input[name=to]")) {
      if (wanted) input.value = wanted;
      searchPlayers(input);
    }
    for (const button of document.querySelectorAll("[data-challenge]")) {
      button.addEventListener("click", () => NewGame.open(button.dataset.challenge, "challenge", button));
    }
    if (wanted) document.querySelector("[data-challenge]").focus(); // the player is named: the game is next
  }

  // -- live --------------------------------------------------------------------------------------------
  function live() {
    if (!data.account || !window.io) return;
    const socket = window.io({ transports: ["websocket", "polling"] });
    window.quadrilleInbox = socket;
    socket.on("connect", () => socket.emit("inbox", {}, () => {}));
    socket.on("challenge", (c) => {
      if (c.status === "pending" && c.from !== data.account) say(I18n.t("{player} challenges you to {game}.", { player: c.from, game: c.title }), "good");
      // Accepted: the challenger goes to the game at once (lichess does the same), with the account's seat key.
      if (c.status === "accepted" && c.match && c.from === data.account) return enterGame(c.match);
      load();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const welcome = sessionStorage.getItem("quadrille.welcome");
    if (welcome) { say(welcome, "good"); sessionStorage.removeItem("quadrille.welcome"); }
    $("show-finished").addEventListener("change", load);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
    setUpChallenges();
    load();
    live();
  });
})();
