// The account page: log in or sign up (handing this browser's matches over), log out, change the password
// (and sign out everywhere), make an API token (shown once), list and revoke the tokens, block players, delete
// the account.
(function () {
  "use strict";
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
    sessionStorage.setItem("quadrille.welcome", n ? `Welcome, ${answer.account.name}. ${n} game${n === 1 ? "" : "s"} of this browser are now in your account.` : `Welcome, ${answer.account.name}.`);
    window.location.assign("/me");
  }

  // The account's seats have a new key: this browser's matches held by the old one follow it.
  function rekey(newKey) {
    const old = Tokens.accountKey();
    if (!newKey || newKey === old) return;
    for (const [match, token] of Object.entries(Tokens.all())) if (token === old) Tokens.set(match, newKey);
    Tokens.setAccountKey(newKey);
  }

  const when = (seconds) => new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

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
      label.textContent = token.label || "Token " + token.id.slice(0, 6);
      const dates = document.createElement("span");
      dates.className = "token-dates";
      dates.textContent = `Made ${when(token.created)} · ${token.last_used ? "last used " + when(token.last_used) : "never used"}`;
      info.append(label, dates);
      const revoke = document.createElement("button");
      revoke.type = "button";
      revoke.className = "danger";
      revoke.textContent = "Revoke";
      revoke.setAttribute("aria-label", `Revoke the token ${label.textContent}`);
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
      say(`The token ${label} is revoked: it no longer works.`, "good");
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
    say(everywhere ? "Your password is changed. Every other session is logged out, every API token is revoked and your seats have a new key."
                   : "Your password is changed. Every other session is logged out.", "good");
    if (everywhere) loadTokens();
  });
  on("token-form", async (body) => {
    const answer = await Players.api("/api/account/tokens", { name: body.name, password: body.password, label: body.label || undefined });
    const out = $("new-token");
    out.hidden = false;
    out.textContent = answer.token;
    $("token-form").querySelector("input[name=password]").value = "";
    say("Here is your token. Copy it now: it is not shown again.", "good");
    loadTokens();
  });
  on("delete-form", async (body) => {
    if (!window.confirm("Delete your account for good?")) return;
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
      none.textContent = "Nobody.";
      blockList.appendChild(none);
    }
    for (const entry of blocks) {
      const li = document.createElement("li"), name = document.createElement("bdi"), button = document.createElement("button");
      name.textContent = entry.name;
      button.type = "button";
      button.textContent = "Unblock";
      button.setAttribute("aria-label", `Unblock ${entry.name}`);
      button.addEventListener("click", async () => {
        try {
          showBlocks((await Players.api("/api/account/blocks/remove", { name: entry.name })).blocks);
          say(`${entry.name} may challenge you again.`, "good");
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
    say(`${body.name} is blocked: their challenges are not accepted.`, "good");
  });

  const logout = $("logout");
  if (logout) logout.addEventListener("click", async () => {
    try { await Players.logOut(); window.location.assign("/account"); } catch (error) { say(error.message, "error"); }
  });
  loadTokens();
})();
