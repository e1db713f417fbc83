// The lobby: new-game forms (local, invite link, by name), option checks, record import, recent matches.
(function () {
  "use strict";
  const Tokens = window.QuadrilleTokens;
  const nameInput = document.getElementById("player-name");
  nameInput.value = Tokens.getName();
  nameInput.addEventListener("change", () => Tokens.setName(nameInput.value.trim()));

  async function api(path, body) {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: "bad-response", reason: "The server answered oddly." }));
    if (!response.ok) throw data;
    return data;
  }

  function readOptions(form) {
    const options = {};
    for (const input of form.querySelectorAll(".options input, .options select")) {
      if (input.closest("[data-list]")) continue;
      if (input.type === "number") options[input.name] = input.value === "" ? null : Number(input.value);
      else if (input.type === "checkbox") options[input.name] = input.checked;
      else if (input.dataset.numeric !== undefined) options[input.name] = Number(input.value);
      else options[input.name] = input.value;
    }
    for (const group of form.querySelectorAll("[data-list]")) {
      options[group.dataset.list] = [...group.querySelectorAll("input:checked")].map((i) => i.value);
    }
    return options;
  }

  function showError(form, message) {
    form.querySelector(".form-error").textContent = message || "";
  }

  async function checkOptions(form) {
    try {
      const result = await api(`/api/games/${form.dataset.game}/check`, { options: readOptions(form) });
      form.querySelector(".warnings").innerHTML = "";
      for (const text of result.warnings) {
        const li = document.createElement("li");
        li.textContent = text;
        form.querySelector(".warnings").appendChild(li);
      }
      showError(form, "");
      return true;
    } catch (error) {
      showError(form, error.reason);
      return false;
    }
  }

  function computerSeats(form, options, mode) {
    // The level's id is a number (1-3) or a word ("random", "classic-1"): keep numbers as numbers.
    const raw = form.querySelector("[name=ai-level]").value;
    const level = /^\d+$/.test(raw) ? Number(raw) : raw;
    const players = options.players || 2;
    const all = Array.from({ length: players }, (_, i) => i + 1);
    if (mode === "demo") return { seats: all, level };
    const you = form.querySelector("[name=ai-you]");
    if (you) return { seats: all.filter((s) => s !== Number(you.value)), level };
    const count = Math.min(players - 1, Number(form.querySelector("[name=ai-count]").value) || 1);
    return { seats: all.slice(players - count), level };
  }

  function enter(created) {
    Tokens.remember(created);
    window.location.href = `/m/${created.match}`;
  }

  for (const form of document.querySelectorAll("form.new-game")) {
    form.addEventListener("change", () => checkOptions(form));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const mode = event.submitter ? event.submitter.value : "local";
      const player = nameInput.value.trim() || undefined;
      const body = { game: form.dataset.game, options: readOptions(form), player };
      try {
        if (mode === "ai" || mode === "demo") {
          enter(await api("/api/matches", { ...body, mode: "ai", ai: computerSeats(form, body.options, mode) }));
        } else if (mode === "by-name") {
          enter(await api("/api/matches/by-name", { ...body, name: form.querySelector("[name=match-name]").value }));
        } else {
          enter(await api("/api/matches", { ...body, mode }));
        }
      } catch (error) {
        showError(form, error.reason || "Could not start the game.");
      }
    });
  }

  document.getElementById("import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      enter(await window.QuadrilleFiles.importFile(file));
    } catch (error) {
      document.getElementById("import-error").textContent = error.reason || "That file is not a saved match.";
    }
  });

  api("/api/matches/recent").then((matches) => {
    const list = document.getElementById("recent-list");
    list.innerHTML = matches.length ? "" : '<li class="muted">No matches yet.</li>';
    for (const m of matches) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/m/${m.id}`;
      a.textContent = `${m.game}${m.name ? " · " + m.name : ""} (${m.mode}, ${m.version} moves)`;
      li.appendChild(a);
      list.appendChild(li);
    }
  }).catch(() => {});
})();
