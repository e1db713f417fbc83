// The short choice of time controls (templates/clock_choice.html): the checked value as the API's `clock` field.
window.ClockChoice = {
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
