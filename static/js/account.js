// The account page: log in or sign up (handing this browser's matches over), log out, change the password,
// make an API token (shown once), block players, delete the account.
(function () {
  "use strict";
  const Players = window.QuadrillePlayers;
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

  on("login-form", (body) => enter("/api/account/login", body));
  on("signup-form", (body) => enter("/api/account", body));
  on("password-form", async (body, form) => {
    const answer = await Players.api("/api/account/password", body);
    Players.csrf = answer.csrf;
    form.reset();
    say("Your password is changed. Every other session is logged out.", "good");
  });
  on("token-form", async (body) => {
    const answer = await Players.api("/api/account/tokens", { name: body.name, password: body.password, label: body.label || undefined });
    const out = $("new-token");
    out.hidden = false;
    out.textContent = answer.token;
    $("token-form").querySelector("input[name=password]").value = "";
    say("Here is your token. Copy it now: it is not shown again.", "good");
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
})();
