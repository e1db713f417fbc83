// "My games": the player's games ("your turn" first; finished ones on request), the challenges waiting for
// them (live over Socket.IO), their own challenges, and the form to challenge a player by name.
(function () {
  "use strict";
  const Players = window.QuadrillePlayers;
  const Tokens = window.QuadrilleTokens;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("my-games-data").textContent);
  let catalog = {};

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
  const optionText = (options) => Object.entries(options || {})
    .filter(([, v]) => !(Array.isArray(v) && !v.length) && v !== "")
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join("+") : v}`).join(", ");
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
          game.rated ? " · rated" : "", ` · ${optionText(game.options)} · ${ago(game.updated)}`));
      line.dataset.match = game.match;
      list.append(line);
    }
  }

  function challengeText(c, incoming) {
    const first = { challenger: incoming ? `${c.from} moves first` : "you move first",
                    opponent: incoming ? "you move first" : "they move first", random: "first move at random" }[c.first];
    const who = incoming ? `${c.from} challenges you` : `You challenged ${c.to.map((t) => t.name).join(", ")}`;
    const clock = !c.clock ? "" : c.clock.kind === "realtime" ? `, ${c.clock.minutes} + ${c.clock.increment || 0}`
      : `, ${c.clock.days} ${c.clock.days === 1 ? "day" : "days"} a move`;
    return `${who} to ${c.title} (${optionText(c.options) || "default options"}), ${c.rated ? "rated" : "casual"}, ${first}${clock}`;
  }

  function button(label, handler, kind) {
    return el("button", { type: "button", className: kind || "", textContent: label, onclick: async (event) => {
      event.target.disabled = true;
      try { await handler(); } catch (error) { failed(error); event.target.disabled = false; }
    } });
  }

  async function answer(c, action) {
    const result = await Players.api(`/api/challenges/${c.challenge}/${action}`, {});
    if (action === "accept" && result.match) {
      Tokens.set(result.match, Tokens.accountKey());
      window.location.assign(`/m/${result.match}`);
      return;
    }
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

  // -- the challenge form ----------------------------------------------------------------------------------
  function renderOptions() {
    const box = $("challenge-options");
    const game = catalog[$("challenge-game").value];
    box.replaceChildren();
    if (!game) return;
    for (const [name, option] of Object.entries(game.options)) {
      if (name === "players" || !["int", "choice", "bool"].includes(option.kind)) continue;
      const words = (option.help ? option.help.split(/[:(;]/)[0] : name).trim();
      const label = el("label", { className: "field" }, words.charAt(0).toUpperCase() + words.slice(1));
      let input;
      if (option.kind === "int") {
        const [low, high] = option.form || option.range;
        input = el("input", { type: "number", min: low, max: high, value: option.default });
      } else if (option.kind === "choice") {
        input = el("select");
        for (const choice of option.choices) input.append(el("option", { value: choice, textContent: choice, selected: choice === option.default }));
      } else {
        input = el("input", { type: "checkbox", checked: !!option.default });
        label.classList.add("toggle");
      }
      input.name = `option-${name}`;
      input.dataset.option = name;
      input.dataset.kind = option.kind;
      label.append(input);
      box.append(label);
    }
  }

  function chosenOptions() {
    const game = catalog[$("challenge-game").value];
    const options = {};
    for (const input of $("challenge-options").querySelectorAll("[data-option]")) {
      const name = input.dataset.option, kind = input.dataset.kind;
      if (kind === "int") options[name] = Number(input.value);
      else if (kind === "bool") options[name] = input.checked;
      else options[name] = game.options[name].choices.find((c) => String(c) === input.value);
    }
    return options;
  }

  async function setUpForm() {
    const form = $("challenge-form");
    if (!form) return;
    try { for (const game of await Players.api("/api/games")) catalog[game.name] = game; } catch (error) { failed(error); }
    const chosen = () => {
      renderOptions();
      // Gamma's creator is seat 1 and starts the match: nothing to choose about the first move.
      const game = catalog[$("challenge-game").value];
      $("first-field").hidden = !!(game && game.options.players);
    };
    chosen();
    $("challenge-game").addEventListener("change", chosen);
    const wanted = new URLSearchParams(window.location.search).get("challenge");
    if (wanted) $("challenge-to").value = wanted;
    let searching = null;
    $("challenge-to").addEventListener("input", () => {
      clearTimeout(searching);
      const typed = $("challenge-to").value.split(",").pop().trim();
      if (!typed) return;
      searching = setTimeout(async () => {
        try {
          const found = await Players.api(`/api/players?search=${encodeURIComponent(typed)}`);
          $("player-names").replaceChildren(...found.players.filter((n) => n !== data.account).map((n) => el("option", { value: n })));
        } catch (e) { /* the search is a help, not a must */ }
      }, 150);
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const to = $("challenge-to").value.split(",").map((n) => n.trim()).filter(Boolean);
      if (!to.length) { $("challenge-to").focus(); return say("Type the name of the player to challenge.", "error"); }
      const body = { to: to.length === 1 ? to[0] : to, game: $("challenge-game").value, options: chosenOptions(),
                     first: $("challenge-first").value, rated: $("challenge-rated").checked,
                     clock: ClockChoice.read(event.target, "challenge-clock") };
      try {
        const made = await Players.api("/api/challenges", body);
        say(`Challenge sent to ${made.to.map((t) => t.name).join(", ")}.`, "good");
        $("challenge-to").value = "";
        await load();
      } catch (error) { failed(error); }
    });
  }

  // -- live --------------------------------------------------------------------------------------------
  function live() {
    if (!data.account || !window.io) return;
    const socket = window.io({ transports: ["websocket", "polling"] });
    window.quadrilleInbox = socket;
    socket.on("connect", () => socket.emit("inbox", {}, () => {}));
    socket.on("challenge", (c) => {
      if (c.status === "pending" && c.from !== data.account) say(`${c.from} challenges you to ${c.title}.`, "good");
      load();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const welcome = sessionStorage.getItem("quadrille.welcome");
    if (welcome) { say(welcome, "good"); sessionStorage.removeItem("quadrille.welcome"); }
    $("show-finished").addEventListener("change", load);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
    setUpForm();
    load();
    live();
  });
})();
