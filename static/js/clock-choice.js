// The short choice of time controls (templates/clock_choice.html): the checked value as the API's `clock` field;
// and a slow game's time in words ("2 days 3 h"), for the match page's clocks and the list of games.
window.ClockChoice = {
  daysText(s) {
    const DAY = 86400, HOUR = 3600;
    const d = Math.floor(s / DAY), h = Math.floor((s % DAY) / HOUR), m = Math.floor((s % HOUR) / 60);
    if (d) return `${d} ${d === 1 ? "day" : "days"}${h ? ` ${h} h` : ""}`;
    if (h) return `${h} h ${m} min`;
    if (s >= 60) return `${m} min`;
    return `${Math.ceil(s)} s`;
  },
  read(form, name) {
    const chosen = form.querySelector(`input[name="${name}"]:checked`).value;  // "", "realtime:M+S", "correspondence:D"
    if (!chosen) return null;
    const [kind, spec] = chosen.split(":");
    if (kind === "realtime") {
      const [minutes, increment] = spec.split("+").map(Number);
      return { kind, minutes, increment };
    }
    return { kind, days: Number(spec) };
  },
};
