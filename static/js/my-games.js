// "My games": the player's games ("your turn" first; finished ones on request), the challenges waiting for
// them (live over Socket.IO; an accepted one of theirs takes them to its game), their own challenges, and the
// lobby's new-game dialog to challenge a player by name.
(function () {
  "use strict";
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
  function ago(seconds) {
    if (!seconds) return "";
    const s = Math.max(0, Date.now() / 1000 - seconds);
    if (s < 60) return "just now";
    if (s < 3600) return `${Math.round(s / 60)} min ago`;
    if (s < 86400) return `${Math.round(s / 3600)} h ago`;
    return `${Math.round(s / 86400)} days ago`;
  }
  const names = (list) => window.QuadrilleNames.list(list);  // each name in <bdi> (names.js)

  function status(game) {
    if (game.finished) {
      return { win: "You won", loss: "You lost", draw: "Draw", aborted: "Aborted" }[game.result] || "Over";
    }
    if (!game.started) return "Waiting for players";
    const left = game.clock && game.clock.seconds_left;
    if (game.your_turn && left != null && game.clock.kind === "correspondence") {
      return `Your turn: ${ClockChoice.daysText(left)} left`;
    }
    if (game.your_turn) return "Your turn";
    return game.turn_name ? `${game.turn_name} to move` : "";
  }

  // What a rated game did to the player's rating: " +12" (the whole change said to a screen reader).
  function ratingChange(game) {
    const r = game.rating;
    if (!r) return "";
    const d = r.after - r.before;
    const change = d > 0 ? `+${d}` : d < 0 ? `-${-d}` : "±0";
    return el("span", { className: "rating-change", title: `Your rating: ${r.before} → ${r.after}` },
      ` · ${change}`, el("span", { className: "sr-only", textContent: ` rating, now ${r.after}` }));
  }

  function renderGames(games) {
    const list = $("games");
    list.replaceChildren();
    $("games-empty").hidden = games.length > 0;
    for (const game of games) {
      const against = game.opponents.map((o) => o.taken ? window.QuadrilleNames.bdi(o.name || o.side) : `${o.side} (free)`);
      const line = el("li", { className: "game-line" + (game.your_turn ? " your-turn" : "") + (game.finished ? " finished" : "") },
        el("a", { href: game.url, className: "game-open" },
          el("span", { className: "game-title" }, game.title),
          el("span", { className: "game-status" + (game.your_turn ? " mine" : "") }, status(game), ratingChange(game))),
        el("span", { className: "game-meta" },
          `${game.sides.join(" and ")} against `, against.length ? names(against) : "nobody yet",
          game.rated ? " · rated" : "", ` · ${game.options_words} · ${ago(game.updated)}`));
      // A finished game may be analysed by the computer: its page asks for the analysis at once (#analyse,
      // static/js/match-analysis.js).
      if (game.finished && game.result !== "aborted") {
        line.append(el("a", { href: `${game.url}#analyse`, className: "button game-analyse", textContent: "Analyse",
                              ariaLabel: `Analyse this game of ${game.title}` }));
      }
      line.dataset.match = game.match;
      list.append(line);
    }
  }

  function challengeText(c, incoming) {
    const first = { challenger: incoming ? `${c.from} moves first` : "you move first",
                    opponent: incoming ? "you move first" : "they move first", random: "first move at random" }[c.first];
    const who = incoming ? `${c.from} challenges you` : `You challenged ${c.to.map((t) => t.name).join(", ")}`;
    const clock = !c.clock ? "" : c.clock.kind === "realtime" ? ` · ${c.clock.minutes} + ${c.clock.increment || 0}`
      : ` · ${c.clock.days} ${c.clock.days === 1 ? "day" : "days"} a move`;
    return `${who} to ${c.title} · ${c.options_words} · ${c.rated ? "rated" : "casual"} · ${first}${clock}`;
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
    say({ accept: "Accepted: the game starts when every player has.", decline: "Declined.", cancel: "Cancelled.",
          start: "Started." }[action], "good");
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
          button("Accept", () => answer(c, "accept"), "primary"), button("Decline", () => answer(c, "decline")))));
    }
    outgoing.replaceChildren();
    $("outgoing-empty").hidden = challenges.outgoing.length > 0;
    for (const c of challenges.outgoing) {
      const answered = c.to.length > 1 ? ` (${c.to.map((t) => `${t.name}: ${t.status}`).join(", ")})` : "";
      const actions = el("span", { className: "challenge-actions" });
      if (c.status === "pending") {
        if (c.to.some((t) => t.status === "accepted")) actions.append(button("Start with those who accepted", () => answer(c, "start")));
        actions.append(button("Cancel", () => answer(c, "cancel")));
      }
      if (c.match) actions.append(el("a", { href: `/m/${c.match}`, className: "button-link", textContent: "Open the game" }));
      outgoing.append(el("li", { className: `challenge ${c.status}` },
        el("span", {}, challengeText(c, false), " · ", el("strong", { className: "challenge-status" }, c.status + answered)), actions));
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
    if (!to.length) { input.focus(); return NewGame.showError(f, "Type the name of the player to challenge."); }
    const body = { to: to.length === 1 ? to[0] : to, game: f.dataset.game, options: NewGame.readOptions(f),
                   first: FIRST[NewGame.readSide(f)] || "random", rated: f.querySelector("input[name=rated]").checked,
                   clock: NewGame.readClock(f) };
    NewGame.busy(f, true);
    try {
      const made = await Players.api("/api/challenges", body);
      NewGame.dialog.close();
      say(`Challenge sent to ${made.to.map((t) => t.name).join(", ")}.`, "good");
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
      if (c.status === "pending" && c.from !== data.account) say(`${c.from} challenges you to ${c.title}.`, "good");
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
