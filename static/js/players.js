// What every players' page shares: the JSON API with the session's CSRF token, who is logged in, the account
// bar (log in, my games, "your turn in N games"), and handing this browser's anonymous matches over to the
// account (their tokens then give way to the account's seat key).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Tokens = window.QuadrilleTokens;
  const Api = window.QuadrilleApi;
  const Players = {
    get csrf() { return Api.csrf; },       // the session's CSRF token, kept by the one api (static/js/api.js)
    set csrf(token) { Api.csrf = token; },
    account: null,
    api: Api,

    // Who is logged in (null: nobody); keeps the seat key and the CSRF token of the session. A session that
    // ended (logged out elsewhere, expired, a new password) takes the key with it from this browser.
    async me() {
      const answer = await Players.api("/api/account");
      Players.account = answer.account;
      if (answer.csrf) Players.csrf = answer.csrf;
      if (answer.account) Tokens.setAccountKey(answer.seat_key); else Players.forgetKey();
      return answer.account;
    },

    // Forget the account's key and every match token that is that key: this browser no longer plays the
    // account's seats (a shared computer after logging out).
    forgetKey() {
      const key = Tokens.accountKey();
      if (key) for (const [match, token] of Object.entries(Tokens.all())) if (token === key) Tokens.forget(match);
      Tokens.setAccountKey(null);
    },

    // The tokens of this browser that are not the account's key: matches played before logging in.
    anonymousTokens() {
      const key = Tokens.accountKey(), found = {};
      const held = Object.entries(Tokens.all()).filter(([, token]) => token && token !== key);
      for (const [match, token] of held.slice(0, 500)) found[match] = token;  // the server takes 500 at once
      return found;
    },

    // Logged in: hand every anonymous match of this browser over to the account (once a token has been handed
    // over it holds nothing, so the match's token becomes the seat key).
    async claimAll() {
      const key = Tokens.accountKey(), tokens = Players.anonymousTokens();
      if (!key || !Object.keys(tokens).length) return [];
      const answer = await Players.api("/api/account/claim", { tokens });
      Players.adopt(answer.claimed, key);
      return answer.claimed;
    },

    adopt(claimed, key) {
      for (const entry of claimed || []) Tokens.set(entry.match, key);
    },

    signedIn(answer) {
      Players.account = answer.account;
      Players.csrf = answer.csrf;
      Tokens.setAccountKey(answer.seat_key);
      Players.adopt(answer.claimed, answer.seat_key);
    },

    async logOut() {
      await Players.api("/api/account/logout", {});
      Players.forgetKey();
      Players.account = null;
    },

    // The account bar of the lobby and the players' pages.
    async bar() {
      const bar = document.querySelector("[data-account-bar]");
      if (!bar) return;
      let account = null;
      try { account = await Players.me(); } catch (e) { return; }
      const turn = bar.querySelector("[data-your-turn]");
      const who = bar.querySelector("[data-account-name]");
      const login = bar.querySelector("[data-login]");
      if (!account) { if (login) login.hidden = false; return; }
      if (login) login.hidden = true;
      if (who) { who.hidden = false; who.textContent = account.name; who.href = `/players/${encodeURIComponent(account.name)}`; }
      try {
        await Players.claimAll();
        const list = await Players.api("/api/me/games");
        const n = list.games.filter((g) => g.your_turn).length;
        const waiting = list.challenges.incoming.length;
        if (turn) {
          const parts = [];
          if (n) parts.push(I18n.n("Your turn in {count} game", "Your turn in {count} games", n, { count: n }));
          if (waiting) parts.push(I18n.n("{count} challenge for you", "{count} challenges for you", waiting, { count: waiting }));
          turn.textContent = parts.join(" · ");
          turn.hidden = !parts.length;
        }
      } catch (e) { /* the bar is a convenience: the pages say what went wrong */ }
    },
  };
  window.QuadrillePlayers = Players;
  document.addEventListener("DOMContentLoaded", () => Players.bar());
})();
