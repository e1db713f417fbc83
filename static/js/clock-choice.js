// The short choice of time controls (templates/clock_choice.html): the checked value as the API's `clock` field;
// and a slow game's time in words ("2 days 3 h"), for the match page's clocks and the list of games, in the
// page's language through Intl (its plurals included: "2 дня 3 ч").
window.ClockChoice = {
  // `n` of a unit ("day", "hour", "minute", "second") in the page's language: "long" ("3 minutes") or "short"
  unit(n, unit, display) {
    const locale = window.QuadrilleI18n.locale;
    return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display || "short" }).format(n);
  },
  // "2 days 3 h" on the clock face; with display "long", Intl's words for a screen reader ("2 days 3 hours")
  daysText(s, display) {
    const I18n = window.QuadrilleI18n;
    const DAY = 86400, HOUR = 3600;
    const d = Math.floor(s / DAY), h = Math.floor((s % DAY) / HOUR), m = Math.floor((s % HOUR) / 60);
    if (display) {
      const unit = (n, name) => window.ClockChoice.unit(n, name, display);
      if (d) return unit(d, "day") + (h ? ` ${unit(h, "hour")}` : "");
      if (h) return `${unit(h, "hour")} ${unit(m, "minute")}`;
      return s >= 60 ? unit(m, "minute") : unit(Math.ceil(s), "second");
    }
    const hours = I18n.t("{count} h", { count: h }), minutes = I18n.t("{count} min", { count: m });
    if (d) return I18n.n("{count} day", "{count} days", d, { count: d }) + (h ? ` ${hours}` : "");
    if (h) return `${hours} ${minutes}`;
    if (s >= 60) return minutes;
    return I18n.t("{count} s", { count: Math.ceil(s) });
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
