// The new-game dialog (templates/new_game_dialog.html), one component for every page that makes a game: the
// lobby's (a friend, the computer, this screen) and "my games" (a challenge to a player by name). Named presets,
// the options in player words, the picture redrawn and the engine's warnings as the options change, the clock,
// the side. The page says what submitting does: NewGame.mount({ submit(form, demo) }) -> { open, ... }.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);

  const api = window.QuadrilleApi; // static/js/api.js

  const START_LABEL = { online: I18n.t("Create and invite"), ai: I18n.t("Start against the computer"),
                        local: I18n.t("Start on this screen"), challenge: I18n.t("Send the challenge") };

  function mount(page) {
    const dialog = $("setup");
    const data = JSON.parse($("new-game-data").textContent);
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
      for (const box of f.querySelectorAll(".for-mode")) box.hidden = !box.dataset.for.split(" ").includes(m);
      showClock(f);
      const open = f.querySelector("input[name=visibility][value=open]:checked");
      f.querySelector("button.start").textContent = m === "online" && open ? I18n.t("Create and wait for a player") : START_LABEL[m];
    }

    // The clock: none, real time (minutes + increment) or correspondence (days per move, between people apart).
    function showClock(f) {
      const apart = ["online", "challenge"].includes(mode(f));
      const correspondence = f.querySelector("input[name=clock-kind][value=correspondence]");
      correspondence.closest("label").hidden = !apart;
      if (!apart && correspondence.checked) f.querySelector("input[name=clock-kind][value=none]").checked = true;
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

    // The side the creator asked for in a two-player game (first, second, random), or undefined.
    function readSide(f) {
      const side = f.querySelector("input[name=side]:checked");
      return side && !side.closest(".for-mode").hidden ? side.value : undefined;
    }

    function showError(f, text) { f.querySelector(".form-error").textContent = text || ""; }
    function busy(f, on) { for (const b of f.querySelectorAll("button")) b.disabled = on; }

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
        if (ticket === checking) showError(f, error.reason || I18n.t("Those options do not work."));
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

    // Open the dialog on a game; `how`: the lobby's way to play (online, ai, local); `button`: gets focus back.
    function open(game, how, button) {
      const form = $(`setup-${game}`);
      opener = button || null;
      for (const f of dialog.querySelectorAll("form.setup")) f.hidden = f !== form;
      $("setup-title").textContent = dialog.dataset.purpose === "challenge"
        ? I18n.t("Challenge: {game}", { game: data[game].title }) : data[game].title;
      const radio = form.querySelector(`input[name=mode][value="${how}"]`);
      if (radio) radio.checked = true;
      showMode(form);
      showError(form, "");
      if (page.opened) page.opened(form);
      dialog.showModal();
      ((page.focus && page.focus(form)) || form.querySelector("button.start")).focus();
    }

    $("setup-close").addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); }); // the backdrop
    dialog.addEventListener("close", () => { if (opener) opener.focus(); });

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
      f.addEventListener("submit", (event) => { event.preventDefault(); page.submit(f, false); });
      const demo = f.querySelector("[data-demo]");
      if (demo) demo.addEventListener("click", () => page.submit(f, true));
    }

    return { dialog, data, open, mode, readOptions, readClock, readSide, showError, busy };
  }

  window.QuadrilleNewGame = { mount };
})();
