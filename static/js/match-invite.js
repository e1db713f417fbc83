// Invites: the creator's waiting room, and the friend who arrives through the invite link.
//
// The invite link is the match's address with the invite secret in its fragment: /m/<id>#join=<secret>.
// Browsers never send a fragment to the server, never put it in a Referer and never log it. This page reads it,
// keeps it for this tab (sessionStorage, so a reload before joining still joins), removes it from the address
// bar, asks the friend's name and sends the secret with `claim`. Without a valid secret the server refuses the
// seat (invite-required) and the visitor watches. The QR code is drawn here, in the page, for the same reason:
// the secret never leaves the browser that holds it.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  // A sentence whose {player} is an element (a linked name): the words around it as text, the element itself.
  function withNode(sentence, node) {
    const [before, after] = sentence.split("{player}");
    return after === undefined ? [sentence] : [before, node, after];
  }
  const Tokens = window.QuadrilleTokens;
  const FRAGMENT = /(?:^#|&)join=([A-Za-z0-9_-]{16,128})/;

  function session() {
    try { return window.sessionStorage; } catch (e) { return null; }
  }

  // The secret of the link this tab was opened with, if any; the address bar keeps no trace of it.
  function takeSecret(matchId) {
    const key = "quadrille.join." + matchId;
    const store = session();
    const found = FRAGMENT.exec(window.location.hash || "");
    if (found) {
      if (store) store.setItem(key, found[1]);
      history.replaceState(null, "", window.location.pathname + window.location.search);
      return found[1];
    }
    return store ? store.getItem(key) : null;
  }

  function drawQr(box, text) {
    box.innerHTML = "";
    if (!text || typeof window.qrcode !== "function") return;
    const qr = window.qrcode(0, "M");
    qr.addData(text);
    qr.make();
    const n = qr.getModuleCount();
    const quiet = 4;
    let path = "";
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) if (qr.isDark(r, c)) path += `M${c + quiet},${r + quiet}h1v1h-1z`;
    }
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
    svg.setAttribute("shape-rendering", "crispEdges");
    const bg = document.createElementNS(svg.namespaceURI, "rect");
    bg.setAttribute("width", "100%"); bg.setAttribute("height", "100%"); bg.setAttribute("fill", "#fff");
    bg.setAttribute("class", "qr-ground"); // dark modules on a light ground in either theme (quadrille.css)
    const dots = document.createElementNS(svg.namespaceURI, "path");
    dots.setAttribute("d", path); dots.setAttribute("fill", "#111");
    dots.setAttribute("class", "qr-ink");
    svg.append(bg, dots);
    box.appendChild(svg);
  }

  // The lobby's "Watch" link on an open game (#watch): look on without being asked to take the free seat.
  function takeWatchOnly() {
    if (window.location.hash !== "#watch") return false;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    return true;
  }

  window.Quadrille.part("invite", (page) => {
    const matchId = page.matchId;
    let secret = takeSecret(matchId);
    const watchOnly = takeWatchOnly();
    let asked = false;        // the name prompt was shown (once per page)
    let claiming = false;
    let drawnLink = null;

    // -- the creator's waiting room ---------------------------------------------------------------------
    function renderWaiting(state) {
      const mine = page.mySeats();
      const free = state.seats.filter((s) => !s.taken && s.kind === "human");
      const waiting = state.mode === "online" && !state.outcome && mine.length > 0 && !state.started && free.length > 0;
      const overlay = $("waiting");
      const gamma = !!state.creator_starts; // the creator starts (Gamma): the board and its start box stay usable
      overlay.hidden = !waiting;
      overlay.classList.toggle("inline", gamma);
      page.root.classList.toggle("waiting-room", waiting && !gamma);
      if (!waiting) return;
      const link = Tokens.getInvite(matchId);
      $("waiting-title").textContent = gamma
        ? I18n.n("{taken} of {count} seat taken", "{taken} of {count} seats taken", state.seats.length,
          { taken: state.seats.length - free.length, count: state.seats.length })
        : I18n.t("Waiting for your friend");
      $("waiting-text").textContent = gamma
        ? I18n.t("Send this link to the people you want to play: each one who opens it takes a free seat. Start the match when everyone is here.")
        : state.visibility === "open"
          ? I18n.t("Anyone may take the free seat ({seat}) from the lobby's list, or you can send this link. The game begins when they arrive.", { seat: page.label(free[0].seat) })
          : I18n.t("Send this link to the person you want to play: it gives them the free seat ({seat}). The game begins when they arrive.", { seat: page.label(free[0].seat) });
      $("invite-note").textContent = state.visibility === "open"
        ? I18n.t("This game is listed in the lobby: the first person to join takes the seat; others watch.")
        : state.visibility === "public" ? I18n.t("This game is listed in the lobby to watch; only your link takes the seat.")
          : I18n.t("Anyone else who opens this match's plain address can only watch.");
      $("invite-row").hidden = !link;
      $("invite-missing").hidden = !!link;
      $("cancel-match").hidden = gamma && !mine.includes(1);
      if (link !== drawnLink) {
        drawnLink = link;
        $("invite-link").value = link || "";
        drawQr($("invite-qr"), link);
      }
    }

    $("copy-link").addEventListener("click", async () => {
      const input = $("invite-link");
      try { await navigator.clipboard.writeText(input.value); }
      catch (e) { input.select(); document.execCommand("copy"); }
      $("copy-link").textContent = I18n.t("Copied");
      setTimeout(() => { $("copy-link").textContent = I18n.t("Copy"); }, 2000);
      page.message(I18n.t("Link copied: send it to your friend."), "good");
    });
    $("cancel-match").addEventListener("click", () => page.confirm(
      I18n.t("Cancel this match? Nobody will be able to join it."), I18n.t("Cancel the match"), () => page.emit("abort", {}),
      I18n.t("Keep waiting")));

    // -- the friend who arrives through the link --------------------------------------------------------------
    function mayJoin(state) {
      const free = state.seats.some((s) => !s.taken && s.kind === "human");
      const openToAll = state.visibility === "open";
      return state.mode === "online" && !state.outcome && free && !page.mySeats().length
        && (secret || openToAll) && !(state.started && state.creator_starts);
    }

    function askName(state) {
      if (asked || claiming || !mayJoin(state) || (watchOnly && !secret)) return;
      asked = true;
      const dialog = $("join");
      const host = state.seats.find((s) => s.taken && s.kind === "human");
      const seat = state.seats.find((s) => !s.taken && s.kind === "human");
      const params = { game: page.root.dataset.title, seat: page.label(seat.seat), player: "{player}" }; // the name: an element
      const named = host && host.name;
      const sentence = secret
        ? (named ? I18n.t("{player} invites you to play {game}. You will play {seat}.", params)
          : I18n.t("A friend invites you to play {game}. You will play {seat}.", params))
        : (named ? I18n.t("{player} is looking for an opponent in {game}. You will play {seat}.", params)
          : I18n.t("A player is looking for an opponent in {game}. You will play {seat}.", params));
      $("join-text").replaceChildren(...withNode(sentence, named ? window.QuadrilleNames.seat(host) : ""));
      $("join-name").value = Tokens.getName() || "";
      dialog.showModal();
      $("join-name").focus();
    }

    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("join-name").value.trim();
      if (!name) return $("join-name").focus();
      Tokens.setName(name);
      $("join").close();
      claim(name);
    });
    $("join-watch").addEventListener("click", () => {
      $("join").close();
      page.message(I18n.t("You are watching. Reload the link to join while a seat is free."));
    });

    function claim(name) {
      claiming = true;
      page.socket.emit("claim", { match: matchId, player: name || undefined, invite: secret || undefined }, (ack) => {
        claiming = false;
        const store = session();
        if (!ack.ok) {
          if (ack.error === "invite-required" && store) store.removeItem("quadrille.join." + matchId);
          return page.failed(ack);
        }
        if (store) store.removeItem("quadrille.join." + matchId);
        secret = null;
        page.setToken(ack.token, ack.seats);
        page.message(I18n.t("You play {seats}.", { seats: page.names(ack.seats) }), "good");
        page.watch();
      });
    }

    // A stranger on the address of a match whose free seat is the invite link's: say so once, in the words of the
    // new-game dialog's "Who may join" ("Only my friend", "My friend, and anyone may watch").
    function explainWatching(state) {
      if (page.mySeats().length || secret || state.mode !== "online" || state.outcome) return;
      const free = state.seats.some((s) => !s.taken && s.kind === "human");
      if (!free || state.visibility === "open") return;
      page.message(state.visibility === "public"
        ? I18n.t("Anyone may watch this game: you are watching. Only the invite link takes the free seat.")
        : I18n.t("Only the invited friend may join this game: you are watching. To play, ask a player for the invite link."));
    }

    return {
      render(state) { renderWaiting(state); },
      watched(first) {
        const state = page.state();
        if (first) explainWatching(state);
        askName(state);
      },
    };
  });
})();
