// The lobby: four game tiles, each opening the new-game dialog on one of three ways to play (a friend, the
// computer, this screen); named presets and the options in player words; by-name play, saved games and live
// games below. Matches are made through the HTTP API (docs/api.md); the server checks every option.
(function () {
  "use strict";
  const Tokens = window.QuadrilleTokens;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("lobby-data").textContent).games;
  const dialog = $("setup");
  const START_LABEL = { online: "Create and invite", ai: "Start against the computer", local: "Start on this screen" };
  const MODE_WORDS = { online: "online", local: "on one screen", ai: "against the computer" };

  async function api(path, body) {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({ error: "bad-response", reason: "The server answered oddly." }));
    if (!response.ok) throw answer;
    return answer;
  }

  function enter(created) {
    Tokens.remember(created);
    window.location.href = `/m/${created.match}`;
  }

  // -- the new-game dialog ------------------------------------------------------------------------------
  let form = null;   // the open game's form
  let opener = null; // the button that opened it (focus goes back there)

  const optionInputs = (f) => [...f.querySelectorAll(".more-options input, .more-options select")];

  function readOptions(f) {
    const options = {};
    for (const input of optionInputs(f)) {
      if (input.closest("[data-list]")) continue;
      if (input.type === "number") options[input.name] = input.value === "" ? null : Number(input.value);
      else if (input.type === "checkbox") options[input.name] = input.checked;
      else if (input.dataset.numeric !== undefined) options[input.name] = Number(input.value);
      else options[input.name] = input.value;
    }
    for (const group of f.querySelectorAll("[data-list]")) {
      options[group.dataset.list] = [...group.querySelectorAll("input:checked")].map((i) => i.value);
    }
    return options;
  }

  function writeOptions(f, options) {
    for (const input of optionInputs(f)) {
      if (!(input.name in options)) continue;
      const value = options[input.name];
      if (input.closest("[data-list]")) input.checked = value.includes(input.value);
      else if (input.type === "checkbox") input.checked = !!value;
      else input.value = String(value);
    }
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  function matchingPreset(f) {
    const options = readOptions(f);
    const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, Array.isArray(o[k]) ? [...o[k]].sort() : o[k]]));
    return data[f.dataset.game].presets.find((p) => same(sorted(p.options), sorted(options)));
  }

  function mode(f) { return f.querySelector("input[name=mode]:checked").value; }

  function showMode(f) {
    const m = mode(f);
    for (const box of f.querySelectorAll(".for-mode")) box.hidden = box.dataset.for !== m;
    showClock(f);
    const open = f.querySelector("input[name=visibility][value=open]:checked");
    f.querySelector("button.start").textContent = m === "online" && open ? "Create and wait for a player" : START_LABEL[m];
  }

  // The clock: none, real time (minutes + increment) or correspondence (days per move, online only).
  function showClock(f) {
    const online = mode(f) === "online";
    const correspondence = f.querySelector("input[name=clock-kind][value=correspondence]");
    correspondence.closest("label").hidden = !online;
    if (!online && correspondence.checked) f.querySelector("input[name=clock-kind][value=none]").checked = true;
    const kind = f.querySelector("input[name=clock-kind]:checked").value;
    for (const box of f.querySelectorAll("[data-clock]")) box.hidden = box.dataset.clock !== kind;
  }

  function readClock(f) {
    const kind = f.querySelector("input[name=clock-kind]:checked").value;
    if (kind === "realtime") {
      const [minutes, increment] = f.querySelector("input[name=clock-realtime]:checked").value.split("+").map(Number);
      return { kind, minutes, increment };
    }
    if (kind === "correspondence") return { kind, days: Number(f.querySelector("input[name=clock-days]:checked").value) };
    return null;
  }

  function showError(f, text) { f.querySelector(".form-error").textContent = text || ""; }

  // The preset that the options match (or "your own options") is shown at once, as the player types, so that
  // nothing moves under the pointer later; the server's check and the picture follow.
  function showPreset(f) {
    const preset = matchingPreset(f);
    f.querySelector(".preset.custom").hidden = !!preset;
    f.querySelector(`input[name=preset][value="${preset ? preset.id : "custom"}"]`).checked = true;
  }

  let checking = 0;
  let timer = null;
  // A side named by an option (Lattice's colours): "You play Blue" follows the colour chosen, as the page will say.
  function nameSides(f) {
    for (const name of f.querySelectorAll("[data-side-option]")) {
      const select = f.querySelector(`select[name="${name.dataset.sideOption}"]`);
      if (select && select.selectedOptions[0]) name.textContent = select.selectedOptions[0].textContent;
    }
  }

  function optionsChanged(f, delay) {
    showPreset(f);
    nameSides(f);
    clearTimeout(timer);
    timer = setTimeout(() => checkOptions(f), delay || 0);
  }

  async function checkOptions(f) {
    const ticket = ++checking;
    const options = readOptions(f);
    try {
      const result = await api(`/api/games/${f.dataset.game}/check`, { options });
      if (ticket !== checking) return;
      const list = f.querySelector(".warnings");
      list.innerHTML = "";
      for (const text of result.warnings) {
        const li = document.createElement("li");
        li.textContent = text;
        list.appendChild(li);
      }
      showError(f, "");
      await drawPicture(f, result.options, ticket);
    } catch (error) {
      if (ticket === checking) showError(f, error.reason || "Those options do not work.");
    }
  }

  async function drawPicture(f, options, ticket) {
    const query = new URLSearchParams();
    for (const input of optionInputs(f)) {
      const name = input.closest("[data-list]") ? input.closest("[data-list]").dataset.list : input.name;
      if (name in options && !query.has(name)) {
        const v = options[name];
        query.set(name, Array.isArray(v) ? v.join(",") : String(v));
      }
    }
    const response = await fetch(`/api/games/${f.dataset.game}/preview.svg?${query}`);
    if (!response.ok || ticket !== checking) return;
    f.querySelector(".setup-pic").innerHTML = await response.text(); // our own server's SVG, escaped there
  }

  function open(game, how, button) {
    form = $(`setup-${game}`);
    opener = button || null;
    for (const f of dialog.querySelectorAll("form.setup")) f.hidden = f !== form;
    $("setup-title").textContent = data[game].title;
    const radio = form.querySelector(`input[name=mode][value="${how}"]`);
    if (radio) radio.checked = true;
    showMode(form);
    showError(form, "");
    const name = form.querySelector(".player-name");
    if (name && !name.value) name.value = Tokens.getName();
    dialog.showModal();
    form.querySelector("button.start").focus();
  }

  for (const button of document.querySelectorAll(".tile [data-mode]")) {
    button.addEventListener("click", () => open(button.closest(".tile").dataset.game, button.dataset.mode, button));
  }
  $("setup-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); }); // the backdrop
  dialog.addEventListener("close", () => { if (opener) opener.focus(); });

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
    const options = readOptions(f);
    const m = demo ? "ai" : mode(f);
    const nameInput = f.querySelector(".player-name");
    if (nameInput && m === "online") Tokens.setName(nameInput.value.trim());
    const player = (m === "online" && nameInput && nameInput.value.trim()) || undefined;
    const body = { game: f.dataset.game, options, mode: m, player, clock: demo ? null : readClock(f) };
    const visibility = f.querySelector("input[name=visibility]:checked");
    if (m === "online" && visibility) body.visibility = visibility.value;
    if (m === "ai") body.ai = computerSeats(f, options, demo);
    for (const b of f.querySelectorAll("button")) b.disabled = true;
    try {
      enter(await api("/api/matches", body));
    } catch (error) {
      showError(f, error.reason || "Could not start the game.");
      for (const b of f.querySelectorAll("button")) b.disabled = false;
    }
  }

  for (const f of dialog.querySelectorAll("form.setup")) {
    f.addEventListener("change", (event) => {
      const t = event.target;
      if (t.name === "mode" || t.name === "visibility") return showMode(f);
      if (t.name === "clock-kind") return showClock(f);
      if (t.name === "preset") {
        const preset = data[f.dataset.game].presets.find((p) => p.id === t.value);
        if (preset) writeOptions(f, preset.options);
        else f.querySelector(".more-options").open = true;
      }
      if (t.name === "preset" || t.closest(".more-options")) optionsChanged(f);
    });
    f.addEventListener("input", (event) => {
      if (event.target.type === "number" && event.target.closest(".more-options")) optionsChanged(f, 300);
    });
    f.addEventListener("submit", (event) => { event.preventDefault(); start(f, false); });
    const demo = f.querySelector("[data-demo]");
    if (demo) demo.addEventListener("click", () => start(f, true));
  }

  // -- by name, saved games, live games -----------------------------------------------------------------
  $("by-name").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = event.target;
    const name = $("match-name").value.trim();
    if (!name) { f.querySelector(".form-error").textContent = "Type a match name first."; return; }
    try {
      const clock = ClockChoice.read(f, "by-name-clock");
      enter(await api("/api/matches/by-name", { name, game: $("by-name-game").value, player: Tokens.getName() || undefined, clock }));
    } catch (error) {
      f.querySelector(".form-error").textContent = error.reason || "Could not join that match.";
    }
  });

  $("import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      enter(await window.QuadrilleFiles.importFile(file));
    } catch (error) {
      $("import-error").textContent = error.reason || "That file is not a saved match.";
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
      .catch(() => { $("recent-list").innerHTML = '<li class="muted">The list could not be loaded.</li>'; });
  }
  loadRecent();
  // (Not while the dialog is open, nor under the keyboard's focus: nothing moves under the player.)
  setInterval(() => {
    if (!document.hidden && !dialog.open && !$("recent-list").contains(document.activeElement)) loadRecent();
  }, REFRESH);

  function showRecent(matches) {
    const list = $("recent-list");
    list.innerHTML = matches.length ? "" : '<li class="muted">No games yet.</li>';
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
      more.textContent = joinable(m)
        ? ` ${m.free_seats === 1 ? "a seat is free" : `${m.free_seats} seats are free`}`
        : ` ${MODE_WORDS[m.mode] || m.mode}, ${m.version} move${m.version === 1 ? "" : "s"}`;
      words.append(name, more);
      li.appendChild(words);
      // The match page asks a joining player's name and takes the free seat (an open match needs no invite).
      if (joinable(m)) li.appendChild(link(`/m/${m.id}`, "Join", `Join ${title}${m.name ? ` ${m.name}` : ""}`, true));
      li.appendChild(link(`/m/${m.id}${joinable(m) ? "#watch" : ""}`, "Watch", `Watch ${title}${m.name ? ` ${m.name}` : ""}`, false));
      list.appendChild(li);
    }
  }
})();
