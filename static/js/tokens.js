// Seat tokens live in the page's own storage (never a cookie), keyed by match.
// Inside a sandboxed or storage-less frame, they fall back to memory for the page's lifetime.
// A logged-in player's browser also keeps the account's seat key (static/js/players.js), which holds the seats
// of the account's matches: a match without a token of its own is tried with it.
(function () {
  "use strict";
  const memory = {};
  function store() {
    try { const s = window.localStorage; s.setItem("quadrille.probe", "1"); s.removeItem("quadrille.probe"); return s; }
    catch (e) { return null; }
  }
  const Tokens = {
    get(match) {
      const s = store();
      return (s && s.getItem("quadrille.token." + match)) || memory[match] || Tokens.accountKey();
    },
    // Every match token this browser holds: {match id: token} (to list or hand over to an account).
    all() {
      const s = store(), found = {};
      if (!s) return found;
      for (let i = 0; i < s.length; i++) {
        const key = s.key(i);
        if (key && key.startsWith("quadrille.token.")) found[key.slice("quadrille.token.".length)] = s.getItem(key);
      }
      return found;
    },
    forget(match) {
      delete memory[match];
      const s = store();
      if (s) s.removeItem("quadrille.token." + match);
    },
    accountKey() { const s = store(); return (s && s.getItem("quadrille.account.key")) || null; },
    setAccountKey(key) {
      const s = store();
      if (!s) return;
      if (key) s.setItem("quadrille.account.key", key); else s.removeItem("quadrille.account.key");
    },
    set(match, token) {
      memory[match] = token;
      const s = store();
      if (s) s.setItem("quadrille.token." + match, token);
    },
    // What a new match's answer (POST /api/matches and the like) leaves for this browser to keep: its token,
    // and for its creator the invite link (with its secret), so that the waiting room can show it again after
    // a reload. Every page that creates or joins a match calls this, so what a match needs kept is kept here.
    remember(created) {
      if (created && created.match && created.token) Tokens.set(created.match, created.token);
      if (created && created.match && created.invite) Tokens.setInvite(created.match, created.invite);
    },
    getInvite(match) {
      const s = store();
      return (s && s.getItem("quadrille.invite." + match)) || memory["invite." + match] || null;
    },
    setInvite(match, link) {
      memory["invite." + match] = link;
      const s = store();
      if (s) s.setItem("quadrille.invite." + match, link);
    },
    // Whether tokens outlive this page: false in a frame whose storage the browser blocks (a third-party
    // iframe where third-party storage is off), where a token lives in memory only.
    persistent() { return !!store(); },
    getName() { const s = store(); return (s && s.getItem("quadrille.player")) || ""; },
    setName(name) { const s = store(); if (s) s.setItem("quadrille.player", name); },
  };
  window.QuadrilleTokens = Tokens;
})();
