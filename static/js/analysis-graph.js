// The evaluation graph of an analysed game (match-analysis.js mounts it): an inline SVG over the plies, the
// evaluation from the first seat's side (+1000 = it wins by force, -1000 = it loses by force; drawn from the top
// edge to the bottom one), or in Gamma with more than two players one line per player from that player's side,
// each with its own colour AND dash, named in a legend. Classed moves are dots; the position shown is a line across.
// The graph is a slider for assistive technology and the keys (arrows, Home, End, Page Up/Down step through the
// game); a click or a tap on it shows the position under the pointer (the page's stepTo).
(function () {
  "use strict";
  const WORDS = {
    label: I18n.t("Evaluation graph: choose a move to show"),
    start: I18n.t("the start"),
    move: (ply, total, name) => I18n.t("move {ply} of {total}, {move}", { ply, total, move: name }),
    // TRANSLATORS: the graph's value as a screen reader says it: "evaluation +1.5 from Blue's side"
    evaluation: (text, name) => I18n.t("evaluation {value} from {player}'s side", { value: text, player: name }),
  };
  const W = 600, H = 180, PAD = 6, SCALE = 1000;
  const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 4", "1 2", "12 4", "6 2 2 2"];
  const NS = "http://www.w3.org/2000/svg";
  const DOT = { inaccuracy: 2.6, mistake: 3.2, blunder: 3.8 };

  const clamp = (v) => Math.max(-SCALE, Math.min(SCALE, Number(v) || 0));
  const y = (v) => H / 2 - (clamp(v) / SCALE) * (H / 2 - PAD);
  const fmt = (v) => {
    const value = clamp(v) / 100;
    return (value > 0 ? "+" : value < 0 ? "−" : "") + Math.abs(value).toFixed(1);
  };
  function el(name, attrs) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function mount(root, page) {
    let total = 0;      // the plies the analysis covers
    let last = 0;       // the game's moves (the slider's end)
    let xOf = () => 0;

    // One value per point 0..n of a seat's line (null where unknown): seat 1 from `eval`, others from `evals`.
    function series(answer, seat, many) {
      const plies = answer.plies;
      const start = many ? (answer.start_evals || {})[seat] : answer.start;
      const values = [start === undefined ? (many ? null : 0) : start];
      for (const p of plies) values.push(many ? (p.evals || {})[seat] : p.eval);
      return values;
    }

    function path(values) {
      let d = "";
      values.forEach((v, k) => {
        if (v === null || v === undefined) return;
        d += `${d ? "L" : "M"}${xOf(k).toFixed(1)} ${y(v).toFixed(1)}`;
      });
      return d;
    }

    function draw(answer, state, shown) {
      const plies = answer.plies;
      total = plies.length;
      last = state.moves.length;
      xOf = (k) => (total ? (Math.min(k, total) / total) * W : 0);
      const seats = state.seats.map((s) => s.seat);
      const many = seats.length > 2 && plies.some((p) => p.evals);
      const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "ag", "aria-hidden": "true", focusable: "false" });
      svg.append(el("rect", { class: "ag-ground", x: 0, y: 0, width: W, height: H }));
      svg.append(el("line", { class: "ag-mid", x1: 0, x2: W, y1: H / 2, y2: H / 2 }));
      if (many) {
        seats.forEach((seat, i) => svg.append(el("path", {
          class: `ag-line ag-seat ag-pc${(seat - 1) % 8 + 1}`, d: path(series(answer, seat, true)),
          "stroke-dasharray": DASHES[i % DASHES.length], "data-seat": seat })));
      } else {
        const values = series(answer, 1, false);
        svg.append(el("path", { class: "ag-area", d: `M0 ${H / 2}${path(values).replace(/^M/, "L")}L${xOf(total)} ${H / 2}Z` }));
        svg.append(el("path", { class: "ag-line", d: path(values), "data-seat": 1 }));
        // whose side is up: seat 1 ahead above the middle, the other side below
        const side = (text, top) => Object.assign(el("text", { class: "ag-side", x: 8, y: top ? 24 : H - 10 }), { textContent: text });
        svg.append(side(page.label(1), true), side(seats.length === 2 ? page.label(2) : "", false));
        plies.forEach((p, i) => {
          if (DOT[p.class]) svg.append(el("circle", { class: `ag-dot ag-${p.class}`, cx: xOf(i + 1), cy: y(p.eval), r: DOT[p.class] }));
        });
      }
      const x = xOf(shown);
      svg.append(el("line", { class: "ag-now", x1: x, x2: x, y1: 0, y2: H }));
      root.replaceChildren(svg);
      root.dataset.shown = String(shown);
      legend(many ? seats : [], state);
      describe(answer, state, shown, many);
    }

    function legend(seats, state) {
      const list = document.getElementById("analysis-legend");
      if (!list) return;
      list.hidden = !seats.length;
      list.replaceChildren(...seats.map((seat, i) => {
        const li = document.createElement("li");
        const swatch = el("svg", { viewBox: "0 0 28 8", width: 28, height: 8, "aria-hidden": "true" });
        swatch.append(el("line", { class: `ag-line ag-pc${(seat - 1) % 8 + 1}`, x1: 1, x2: 27, y1: 4, y2: 4,
          "stroke-dasharray": DASHES[i % DASHES.length] }));
        li.append(swatch, ` ${page.label(seat)}`);
        li.dataset.seat = seat;
        return li;
      }));
    }

    // What a screen reader says of the slider: the move shown and its evaluation.
    function describe(answer, state, shown, many) {
      root.setAttribute("aria-valuemin", "0");
      root.setAttribute("aria-valuemax", String(last));
      root.setAttribute("aria-valuenow", String(shown));
      const where = shown ? WORDS.move(shown, last, page.moveName(state, shown - 1)) : WORDS.start;
      const p = shown ? answer.plies[shown - 1] : null;
      let value = "";
      if (!many && (p || answer.start !== undefined)) value = WORDS.evaluation(fmt(p ? p.eval : answer.start), page.label(1));
      else if (many && p && p.evals) value = state.seats.map((s) => `${page.label(s.seat)} ${fmt(p.evals[s.seat])}`).join(", ");
      root.setAttribute("aria-valuetext", value ? `${where}: ${value}` : where);
    }

    root.setAttribute("role", "slider");
    root.setAttribute("tabindex", "0");
    root.setAttribute("aria-label", WORDS.label);
    root.addEventListener("click", (event) => {
      const box = root.getBoundingClientRect();
      if (!total || !box.width) return;
      const ply = Math.round(((event.clientX - box.left) / box.width) * total);
      page.stepTo(Math.max(0, Math.min(total, ply)));
      root.focus({ preventScroll: true });
    });

    function key(event) {
      if (document.activeElement !== root || !total) return false;
      const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
      let to = null;
      const asked = page.replayPly(); // a position still on its way counts: held keys go on from it
      const now = asked === null ? last : asked;
      if (event.key in steps) to = now + steps[event.key];
      else if (event.key === "Home") to = 0;
      else if (event.key === "End") to = last;
      if (to === null) return false;
      page.stepTo(Math.max(0, Math.min(last, to)));
      return true;
    }

    return { draw, key };
  }

  window.QuadrilleAnalysisGraph = { mount };
})();
