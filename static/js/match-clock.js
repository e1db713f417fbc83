// The clocks of a match with a time control (the STATE's `clock`, quadrille/clocks/): one per seat above the
// board, the running one lit and counting down, low time in the danger colour. The server keeps the time; this
// only interpolates between two STATEs from the moment one arrived (the server's `left` is as of its sending),
// and never decides a flag: the server's STATE says when a time ran out.
// Screen readers: each clock is a timer (role="timer", not live), and the player hears their own time once at
// 60 and at 10 seconds (real time), or once at a day and at an hour (correspondence), never every tick. A
// correspondence player who allowed notifications is reminded the same way while the tab is hidden.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const $ = (id) => document.getElementById(id);
  const LOW = 10;                 // seconds: the low-time styling of a real-time clock
  const HOUR = 3600, DAY = 86400;
  const WARN = { realtime: [60, 10], correspondence: [DAY, HOUR] };

  function realtimeText(s) {
    if (s < LOW) return new Intl.NumberFormat(I18n.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
      .format(Math.floor(s * 10) / 10);
    const whole = Math.ceil(s);
    const h = Math.floor(whole / HOUR), m = Math.floor((whole % HOUR) / 60), sec = whole % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return `${h ? h + ":" : ""}${mm}:${String(sec).padStart(2, "0")}`;
  }

  const correspondenceText = (s) => window.ClockChoice.daysText(s); // static/js/clock-choice.js

  // a time in words for a screen reader: "1 minute 5 seconds", in the page's language (Intl's units and plurals)
  function spoken(s, kind) {
    const unit = (n, name) => window.ClockChoice.unit(n, name, "long");
    if (kind === "correspondence") return window.ClockChoice.daysText(s, "long");
    if (s < 60) return unit(Math.ceil(s), "second");
    const m = Math.floor(s / 60), sec = Math.round(s % 60);
    return unit(m, "minute") + (sec ? ` ${unit(sec, "second")}` : "");
  }

  window.Quadrille.part("clock", (page) => {
    const box = $("clocks");
    let clock = null;          // the latest STATE's clock
    let received = 0;          // when it arrived (performance.now())
    let faces = [];            // per seat: {root, time}
    let timer = null;
    let warned = new Set();    // thresholds already announced in this turn

    function build(state) {
      box.innerHTML = "";
      faces = state.clock.left.map((_, i) => {
        const seat = i + 1;
        const root = document.createElement("div");
        root.className = `clock seat-${seat}`;
        root.dataset.seat = String(seat);
        root.setAttribute("role", "timer");
        const name = document.createElement("span");
        name.className = "clock-name";
        name.textContent = page.label(seat);
        const time = document.createElement("span");
        time.className = "clock-time";
        root.append(name, time);
        box.appendChild(root);
        return { root, time, name };
      });
    }

    function leftNow(seat) {
      const base = clock.left[seat - 1];
      if (clock.running !== seat) return base;
      return Math.max(base - (performance.now() - received) / 1000, 0);
    }

    function draw() {
      if (!clock) return;
      const kind = clock.kind;
      faces.forEach((face, i) => {
        const seat = i + 1;
        const s = leftNow(seat);
        const text = kind === "correspondence" ? correspondenceText(s) : realtimeText(s);
        if (face.time.textContent !== text) face.time.textContent = text;
        const running = clock.running === seat;
        face.root.classList.toggle("running", running);
        face.root.classList.toggle("days", kind === "correspondence");
        face.root.classList.toggle("low", kind === "realtime" ? s < LOW : s < HOUR);
        face.root.classList.toggle("flagged", clock.flagged === seat);
        face.root.classList.toggle("mine", page.mySeats().includes(seat) && page.role() === "player");
        face.name.textContent = page.label(seat) + (clock.flagged === seat ? ` · ${I18n.t("out of time")}` : "");
        const params = { player: page.label(seat), time: spoken(s, kind) };
        face.root.setAttribute("aria-label", running ? I18n.t("{player}: {time} left, running", params)
          : I18n.t("{player}: {time} left", params));
      });
      warn();
    }

    // Once per threshold and turn, only for the player's own running clock.
    function warn() {
      const seat = clock.running;
      if (!seat || page.role() === "spectator" || !page.mySeats().includes(seat)) return;
      const s = leftNow(seat);
      for (const mark of WARN[clock.kind] || []) {
        if (s <= mark && !warned.has(mark)) {
          warned.add(mark);
          if (s <= 0) continue;
          const text = I18n.t("{time} left on your clock", { time: spoken(mark, clock.kind) });
          if (page.announce) page.announce(text);
          if (clock.kind === "correspondence" && page.notify) {
            page.notify(I18n.t("Your move: {time} left", { time: correspondenceText(s) }));
          }
        }
      }
    }

    function render(state, previous) {
      clock = state.clock || null;
      box.hidden = !clock;
      if (!clock) { clearInterval(timer); timer = null; return; }
      received = performance.now();
      if (faces.length !== clock.left.length) build(state);
      const turnChanged = !previous || !previous.clock || previous.clock.running !== clock.running
        || previous.version !== state.version;
      if (turnChanged) {
        // thresholds already passed at a turn's start are not news
        warned = new Set((WARN[clock.kind] || []).filter((mark) => clock.running && clock.left[clock.running - 1] <= mark));
      }
      draw();
      clearInterval(timer);
      timer = clock.running ? setInterval(draw, clock.kind === "realtime" ? 100 : 30000) : null;
    }

    // A slow game opened (or come back to) while it is the player's move: a reminder, if they allowed
    // notifications and the tab is hidden (signals' notify decides both).
    function watched(first) {
      if (first && clock && clock.kind === "correspondence" && clock.running && page.myTurn() && page.notify) {
        page.notify(I18n.t("Your move: {time} left", { time: correspondenceText(leftNow(clock.running)) }));
      }
    }

    return { render, watched };
  });
})();
