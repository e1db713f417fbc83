// The account page: log in or sign up (handing this browser's matches over), log out, change the password
// (and sign out everywhere), make an API token (shown once), list and revoke the tokens, block players, delete
// the account.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Players = window.QuadrillePlayers;
  const Tokens = window.QuadrilleTokens;
  const $ = (id) => document.getElementById(id);
  const say = (text, kind) => { const box = $("account-message"); box.textContent = text; box.className = "message " + (kind || ""); };
  const fields = (form) => Object.fromEntries(new FormData(form).entries());

  function on(id, handler) {
    const form = $(id);
    if (!form) return;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try { await handler(fields(form), form); }
      catch (error) { say(error.message, "error"); }
      finally { button.disabled = false; }
    });
  }

  async function enter(path, body) {
    const answer = await Players.api(path, { ...body, tokens: Players.anonymousTokens() });
    Players.signedIn(answer);
    const n = answer.claimed.length;
    const name = answer.account.name;
    sessionStorage.setItem("quadrille.welcome", n
      ? I18n.n("Welcome, {name}. {count} game of this browser is now in your account.",
        "Welcome, {name}. {count} games of this browser are now in your account.", n, { name, count: n })
      : I18n.t("Welcome, {name}.", { name }));
    window.location.assign("/me");
  }

  // The account's seats have a new key: this browser's matches held by the old one follow it.
  function rekey(newKey) {
    const old = Tokens.accountKey();
    if (!newKey || newKey === old) return;
    for (const [match, token] of Object.entries(Tokens.all())) if (token === old) Tokens.set(match, newKey);
    Tokens.setAccountKey(newKey);
  }

  const when = (seconds) => new Date(seconds * 1000).toLocaleString(I18n.locale, { dateStyle: "medium", timeStyle: "short" });

  function showTokens(tokens) {
    const list = $("token-list");
    if (!list) return;
    list.replaceChildren(...tokens.map((token) => {
      const item = document.createElement("li");
      item.className = "token-line";
      item.dataset.token = token.id;
      const info = document.createElement("div");
      info.className = "token-info";
      const label = document.createElement("span");
      label.className = "token-label";
      label.textContent = token.label || I18n.t("Token {id}", { id: token.id.slice(0, 6) });
      const dates = document.createElement("span");
      dates.className = "token-dates";
      dates.textContent = `${I18n.t("Made {date}", { date: when(token.created) })} · ${token.last_used
        ? I18n.t("last used {date}", { date: when(token.last_used) }) : I18n.t("never used")}`;
      info.append(label, dates);
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "danger";
      revoke.textContent = I18n.t("Revoke");
      revoke.setAttribute("aria-label", I18n.t("Revoke the token {name}", { name: label.textContent }));
      revoke.addEventListener("click", () => revokeToken(token.id, label.textContent, revoke));
      item.append(info, revoke);
      return item;
    }));
    $("tokens-empty").hidden = tokens.length > 0;
  }

  async function loadTokens() {
    if (!$("token-list")) return;
    try { showTokens((await Players.api("/api/account/tokens")).tokens); } catch (error) { say(error.message, "error"); }
  }

  async function revokeToken(id, label, button) {
    button.disabled = true;
    try {
      const answer = await Players.api(`/api/account/tokens/${encodeURIComponent(id)}/revoke`, {});
      showTokens(answer.tokens);
      say(I18n.t("The token {name} is revoked: it no longer works.", { name: label }), "good");
    } catch (error) { button.disabled = false; say(error.message, "error"); }
  }

  on("login-form", (body) => enter("/api/account/login", body));
  on("signup-form", (body) => enter("/api/account", body));
  on("password-form", async (body, form) => {
    const everywhere = form.querySelector("input[name=sign_out_everywhere]").checked;
    const answer = await Players.api("/api/account/password",
      { password: body.password, new_password: body.new_password, sign_out_everywhere: everywhere });
    Players.csrf = answer.csrf;
    rekey(answer.seat_key);
    form.reset();
    say(everywhere ? I18n.t("Your password is changed. Every other session is logged out, every API token is revoked and your seats have a new key.")
                   : I18n.t("Your password is changed. Every other session is logged out."), "good");
    if (everywhere) loadTokens();
  });
  on("token-form", async (body) => {
    const answer = await Players.api("/api/account/tokens", { name: body.name, password: body.password, label: body.label || undefined });
    const out = $("new-token");
    out.hidden = false;
    out.textContent = answer.token;
    $("token-form").querySelector("input[name=password]").value = "";
    say(I18n.t("Here is your token. Copy it now: it is not shown again."), "good");
    loadTokens();
  });
  on("delete-form", async (body) => {
    if (!window.confirm(I18n.t("Delete your account for good?"))) return;
    await Players.api("/api/account/delete", body);
    Players.forgetKey();
    window.location.assign("/");
  });
  // Blocked players: the list (each with Unblock), and the form that blocks one more (a profile's "Block"
  // link fills in the name).
  const blockList = $("block-list");
  function showBlocks(blocks) {
    blockList.replaceChildren();
    if (!blocks.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = I18n.t("Nobody.");
      blockList.appendChild(none);
    }
    for (const entry of blocks) {
      const li = document.createElement("li"), name = document.createElement("bdi"), button = document.createElement("button");
      name.textContent = entry.name;
      button.type = "button";
      button.textContent = I18n.t("Unblock");
      button.setAttribute("aria-label", I18n.t("Unblock {name}", { name: entry.name }));
      button.addEventListener("click", async () => {
        try {
          showBlocks((await Players.api("/api/account/blocks/remove", { name: entry.name })).blocks);
          say(I18n.t("{name} may challenge you again.", { name: entry.name }), "good");
        } catch (error) { say(error.message, "error"); }
      });
      li.append(name, " ", button);
      blockList.appendChild(li);
    }
  }
  if (blockList) Players.api("/api/account/blocks").then((answer) => showBlocks(answer.blocks), (error) => say(error.message, "error"));
  on("block-form", async (body, form) => {
    const answer = await Players.api("/api/account/blocks", { name: body.name });
    showBlocks(answer.blocks);
    form.reset();
    $("block-name").value = "";
    say(I18n.t("{name} is blocked: their challenges are not accepted.", { name: body.name }), "good");
  });

  const logout = $("logout");
  if (logout) logout.addEventListener("click", async () => {
    try { await Players.logOut(); window.location.assign("/account"); } catch (error) { say(error.message, "error"); }
  });
  loadTokens();
})();
