// Signals: it is always obvious whose turn it is and what just happened, even from another tab.
//
// - The tab title says "Your turn" while it is the player's turn (and blinks while the tab is hidden), or
//   what happened ("Bob joined", "Red left the game", "You won").
// - Sounds, made in the page with the Web Audio API (no files, no CDN): a soft tick for every move, a lower
//   knock for a capture (the renderer's `captured(state, previous)`), tunes for the turn, the end and the
//   people. On until the player turns them off (the button or M), as on lichess, whose sounds are on by default:
//   a move you cannot see land (the opponent's, in another tab) is what the sound is for. Browsers keep every
//   page silent until the player has clicked or pressed a key in it: no audio is made before that gesture. The
//   choice is remembered in this browser (localStorage).
// - Browser notifications, only after the player opts in (a button), and only while the tab is hidden.
// Events come from comparing each STATE (and presence) with the one before: the server decides, this only tells.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  const SOUND_KEY = "quadrille.sound";
  const NOTIFY_KEY = "quadrille.notify";

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  // Short tones: [frequency Hz, start s, length s]. Soft sine waves with a quick fade, so nothing clicks.
  const TUNES = {
    turn: [[660, 0, 0.12], [880, 0.12, 0.18]],
    join: [[523, 0, 0.12], [659, 0.1, 0.12], [784, 0.2, 0.25]],
    left: [[494, 0, 0.15], [370, 0.15, 0.3]],
    back: [[440, 0, 0.1], [587, 0.1, 0.2]],
    win: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.15], [1047, 0.45, 0.4]],
    end: [[587, 0, 0.2], [440, 0.2, 0.4]],
    offer: [[740, 0, 0.1], [740, 0.18, 0.1]],
    move: [[520, 0, 0.07]],
    capture: [[300, 0, 0.09], [220, 0.06, 0.14]],
  };

  window.Quadrille.part("signals", (page) => {
    const store = storage();
    let soundOn = !(store && store.getItem(SOUND_KEY) === "off");
    let audio = null;
    const baseTitle = document.title;
    let headline = "";       // what the title says before the game's name
    let blink = null;

    // -- sound ----------------------------------------------------------------------------------------
    // No audio is made before the player's first click, tap or key in the page: browsers refuse to start it
    // (and warn in the console) until then, so a sound due before it (a friend joining) is only marked.
    let gesture = false;
    const GESTURES = ["pointerdown", "keydown", "touchend"];
    const woken = (event) => {
      if (event.key === "Escape") return; // not a gesture that lets a page start audio
      gesture = true;
      for (const kind of GESTURES) window.removeEventListener(kind, woken, true);
    };
    for (const kind of GESTURES) window.addEventListener(kind, woken, true);

    function play(name) {
      if (!soundOn) return;
      page.root.dataset.sound = name; // the last sound due: for tests and the console
      if (!gesture) return;
      try {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        if (audio.state === "suspended") audio.resume();
        const now = audio.currentTime;
        for (const [freq, at, length] of TUNES[name] || []) {
          const osc = audio.createOscillator();
          const gain = audio.createGain();
          osc.type = "sine";
          osc.frequency.value = freq;
          gain.gain.setValueAtTime(0.0001, now + at);
          gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
          gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
          osc.connect(gain).connect(audio.destination);
          osc.start(now + at);
          osc.stop(now + at + length + 0.05);
        }
      } catch (e) { /* no audio here: the page and the title still tell */ }
    }
    page.sound = play;

    function drawSoundButton() {
      const b = $("sound");
      b.setAttribute("aria-pressed", String(soundOn));
      b.classList.toggle("on", soundOn);
      b.querySelector(".label").textContent = soundOn ? I18n.t("Sound on") : I18n.t("Sound off");
    }
    function toggleSound() {
      soundOn = !soundOn;
      if (store) store.setItem(SOUND_KEY, soundOn ? "on" : "off");
      drawSoundButton();
      if (soundOn) play("turn"); // what it sounds like, and the click lets the browser start audio
    }
    $("sound").addEventListener("click", toggleSound);
    drawSoundButton();

    // -- notifications ---------------------------------------------------------------------------------
    const canNotify = "Notification" in window;
    const notifyWanted = () => canNotify && Notification.permission === "granted" && store && store.getItem(NOTIFY_KEY) === "on";
    function drawNotifyButton() {
      const b = $("notify");
      const relevant = canNotify && page.role() === "player" && Notification.permission !== "denied";
      b.hidden = !relevant;
      b.textContent = notifyWanted() ? I18n.t("Notifications on") : I18n.t("Notify me");
      b.setAttribute("aria-pressed", String(notifyWanted()));
    }
    $("notify").addEventListener("click", async () => {
      if (notifyWanted()) { store.setItem(NOTIFY_KEY, "off"); return drawNotifyButton(); }
      const answer = await Notification.requestPermission();
      if (store) store.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
      if (answer !== "granted") page.message(I18n.t("The browser will not show notifications for this site."));
      drawNotifyButton();
    });
    function notify(text) {
      if (!document.hidden || !notifyWanted()) return;
      try {
        const n = new Notification(text, { body: page.root.dataset.title, tag: "quadrille-" + page.matchId });
        n.onclick = () => { window.focus(); n.close(); };
      } catch (e) { /* some browsers allow notifications only from a service worker: the title still blinks */ }
    }

    // -- the tab title ------------------------------------------------------------------------------------
    function drawTitle() {
      const full = headline ? `${headline} · ${baseTitle}` : baseTitle;
      if (blink) { clearInterval(blink); blink = null; }
      document.title = full;
      if (headline && document.hidden) {
        let on = true;
        blink = setInterval(() => { on = !on; document.title = on ? full : `● ${full}`; }, 1000);
      }
    }
    document.addEventListener("visibilitychange", drawTitle);

    function tell(text, tune, title) {
      if (tune) play(tune);
      if (title !== undefined) headline = title;
      drawTitle();
      if (text) notify(text);
    }

    // -- what changed ------------------------------------------------------------------------------------
    let seenAway = new Set();
    let shown = false;
    function render(state, previous) {
      drawNotifyButton();
      const role = page.role();
      if (!shown) { shown = true; previous = null; } // the first drawing tells nothing new
      if (state.outcome) {
        const title = window.Quadrille.resultTitle ? window.Quadrille.resultTitle(page) : I18n.t("Game over");
        const tune = role === "player" && title === I18n.t("You won") ? "win" : "end";
        if (previous && !previous.outcome) {
          // the move that ended the game is heard too, then the end's tune
          const moved = moveSound(state, previous);
          if (moved) window.setTimeout(() => play(tune), 150);
          tell(title, moved ? null : tune, title);
        }
        else { headline = title; drawTitle(); }
        return;
      }
      const newcomers = previous ? state.seats.filter((s) => s.taken && s.kind === "human"
        && !previous.seats.some((p) => p.seat === s.seat && p.taken) && !page.mySeats().includes(s.seat)) : [];
      if (newcomers.length && role !== "spectator") {
        const who = new Intl.ListFormat(I18n.locale, { type: "conjunction" })
          .format(newcomers.map((s) => (s.name ? window.QuadrilleNames.isolate(s.name) : page.label(s.seat))));
        const count = newcomers.length;
        const text = state.started && !previous.started
          ? I18n.n("{players} joined: the game begins.", "{players} joined: the game begins.", count, { players: who })
          : I18n.n("{players} joined.", "{players} joined.", count, { players: who });
        page.message(text, "good");
        tell(text, "join", page.myTurn() ? I18n.t("Your turn")
          : I18n.n("{players} joined", "{players} joined", count, { players: who }));
        return;
      }
      if (!state.started && role === "player") {
        headline = state.creator_starts ? I18n.t("Waiting for players") : I18n.t("Waiting for your friend");
        drawTitle();
        return;
      }
      const mine = page.myTurn();
      const moved = moveSound(state, previous);
      if (mine && previous && previous.turn !== state.turn) tell(I18n.t("Your turn"), moved ? null : "turn", I18n.t("Your turn"));
      else { headline = mine ? I18n.t("Your turn") : ""; drawTitle(); }
      offersChanged(state, previous);
    }

    // A move just drawn (not a step through the game): its sound. Whether it took something is the renderer's.
    function moveSound(state, previous) {
      if (!previous || page.replaying() || state.moves.length !== previous.moves.length + 1) return false;
      const spec = page.spec;
      let capture = false;
      try { capture = !!(spec.captured && spec.captured(state, previous)); } catch (e) { capture = false; }
      play(capture ? "capture" : "move");
      return true;
    }

    function offersChanged(state, previous) {
      if (!previous || page.role() !== "player") return;
      for (const kind of ["takeback", "draw", "rematch"]) {
        const now = (state.offers && state.offers[kind]) || [];
        const before = (previous.offers && previous.offers[kind]) || [];
        const fromOthers = now.filter((s) => !page.mySeats().includes(s) && !before.includes(s));
        if (!fromOthers.length) continue;
        const params = { players: page.names(fromOthers) }, count = fromOthers.length;
        const said = {
          takeback: () => I18n.n("{players} asks to take back a move", "{players} ask to take back a move", count, params),
          draw: () => I18n.n("{players} offers a draw", "{players} offer a draw", count, params),
          rematch: () => I18n.n("{players} offers a rematch", "{players} offer a rematch", count, params),
        };
        tell(said[kind](), "offer");
      }
    }

    function presence(p) {
      const state = page.state();
      if (state.mode !== "online" || page.role() === "spectator" || state.outcome) return;
      // In a game of days per move being away is nothing to announce (absence.py): the presence dot says it.
      const away = new Set((p.away || []).filter((e) => e.rule !== "correspondence").map((e) => e.seat)
        .filter((s) => !page.mySeats().includes(s)));
      for (const seat of away) {
        if (!seenAway.has(seat)) tell(I18n.t("{player} left the game", { player: page.label(seat) }), "left");
      }
      for (const seat of seenAway) {
        if (!away.has(seat) && !page.mySeats().includes(seat)) tell(I18n.t("{player} is back", { player: page.label(seat) }), "back");
      }
      seenAway = away;
    }

    page.notify = notify; // for other parts (match-clock.js: a correspondence move's reminder)

    return {
      render,
      presence,
      key(event) {
        if (event.key === "m" || event.key === "M") { toggleSound(); return true; }
        return false;
      },
    };
  });
})();
