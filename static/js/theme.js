// Light and dark themes. Loaded synchronously in every page's <head> (an external file: the CSP forbids inline
// script), so <html data-theme="light|dark"> is set before the first paint and no page flashes the wrong colours.
//
// - The choice: what the player picked with the header's theme button (localStorage "quadrille.theme"), or
//   else the system's setting (prefers-color-scheme), followed live while nothing is picked. Picking what the
//   system says forgets the pick, so the page follows the system again.
// - Embeds (/embed/...) follow the system (in a frame, the host page's colour scheme) unless the embedding
//   address says otherwise with ?theme=light or ?theme=dark; the frame keeps that for its session, so a
//   rematch or a new game in the frame stays in the host's theme. An embed never reads the site's stored pick.
// Every colour is a custom property of static/css/quadrille.css; the dark values live under
// :root[data-theme="dark"].
(function () {
  "use strict";
  const KEY = "quadrille.theme";
  const EMBED_KEY = "quadrille.embed.theme";
  const root = document.documentElement;
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  const embedded = /^\/embed\//.test(window.location.pathname);
  const valid = (t) => t === "light" || t === "dark";

  function storage(kind) {
    try { return window[kind]; } catch (e) { return null; }
  }
  const local = storage("localStorage");
  const session = storage("sessionStorage");

  function systemTheme() { return system && system.matches ? "dark" : "light"; }

  // What the embedding page asked for, if anything (kept for this frame's session).
  function told() {
    if (!embedded) return null;
    const asked = new URLSearchParams(window.location.search).get("theme");
    if (valid(asked)) {
      try { if (session) session.setItem(EMBED_KEY, asked); } catch (e) { /* a frame without storage */ }
      return asked;
    }
    const kept = session && session.getItem(EMBED_KEY);
    return valid(kept) ? kept : null;
  }

  let pickedHere; // a pick made on this page (kept here too, for a browser that blocks storage)
  function picked() {
    if (embedded) return told();
    if (pickedHere !== undefined) return pickedHere;
    let stored = null;
    try { stored = local && local.getItem(KEY); } catch (e) { /* blocked */ }
    return valid(stored) ? stored : null;
  }

  function current() { return picked() || systemTheme(); }

  // A theme change is announced on the document ("quadrille-theme", detail {theme}) for what CSS cannot
  // recolour by itself, such as a canvas (Lattice's 3D stage reads --stage from the stylesheet).
  function apply() {
    const theme = current();
    const changed = root.dataset.theme !== theme;
    root.dataset.theme = theme;
    if (changed && document.readyState !== "loading") {
      document.dispatchEvent(new CustomEvent("quadrille-theme", { detail: { theme } }));
    }
    const I18n = window.QuadrilleI18n; // read here: this script may run before the page's words are loaded
    for (const b of document.querySelectorAll("[data-theme-toggle]")) {
      b.setAttribute("aria-pressed", String(theme === "dark"));
      if (!I18n) continue; // (the head's first call, before static/js/i18n.js: no button exists yet anyway)
      b.title = theme === "dark" ? I18n.t("Dark theme is on: switch to light") : I18n.t("Light theme is on: switch to dark");
    }
  }

  function toggle() {
    const next = current() === "dark" ? "light" : "dark";
    pickedHere = next === systemTheme() ? null : next; // the system's own choice: follow it from now on
    try {
      if (pickedHere) local.setItem(KEY, next);
      else local.removeItem(KEY);
    } catch (e) { /* storage blocked: the pick lasts for this page only */ }
    apply();
  }

  apply();
  if (system) {
    const follow = () => { if (!picked()) apply(); };
    if (system.addEventListener) system.addEventListener("change", follow);
    else if (system.addListener) system.addListener(follow);
  }
  // Another tab of this site changed the pick: follow it here too.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY && !embedded) { pickedHere = undefined; apply(); }
  });

  document.addEventListener("DOMContentLoaded", () => {
    for (const b of document.querySelectorAll("[data-theme-toggle]")) b.addEventListener("click", toggle);
    apply();
  });
  window.QuadrilleTheme = { current, toggle };
})();
