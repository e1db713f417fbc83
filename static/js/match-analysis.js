// The computer's analysis of a game, as the match page shows it: the "Analyse" button (on a finished game, and at any
// time on one screen: hot seat or against the computer; never in an online game under way), a progress bar while
// the workers run it, the evaluation graph (clickable, and a slider for the keys), each move of the move list
// marked by its class ("?!", "?", "??" as well as a colour), the counts per player, and the computer's best move
// lit on the board for the position shown.
//
// The server does all the thinking (POST/GET /api/matches/<id>/analysis, docs/api.md): each ply's evaluation, class
// and best move, and the data attributes of the cells each best move touches (best_cells), so that this script
// finds them among the renderer's `.cell`s without knowing any game's rules. Drawing the graph: analysis-graph.js.
(function () {
  "use strict";
  const WORDS = {
    analyse: I18n.t("Analyse"),
    again: (n) => I18n.n("Analyse again ({count} new move)", "Analyse again ({count} new moves)", n),
    title: I18n.t("Computer analysis"),
    queued: I18n.t("Waiting for a computer…"),
    running: (pct) => I18n.t("Analysing… {percent}%", { percent: pct }),
    failed: I18n.t("The analysis could not be finished."),
    bestHere: (who, move) => (who ? I18n.t("Best move here, for {player}: {move}", { player: who, move })
      : I18n.t("Best move here: {move}", { move })),
    none: I18n.t("no inaccuracies, mistakes or blunders"),
    count: {
      inaccuracy: (n) => I18n.n("{count} inaccuracy", "{count} inaccuracies", n),
      mistake: (n) => I18n.n("{count} mistake", "{count} mistakes", n),
      blunder: (n) => I18n.n("{count} blunder", "{count} blunders", n),
    },
    classed: {
      inaccuracy: (ply, move) => I18n.t("Move {ply} ({move}) was an inaccuracy.", { ply, move }),
      mistake: (ply, move) => I18n.t("Move {ply} ({move}) was a mistake.", { ply, move }),
      blunder: (ply, move) => I18n.t("Move {ply} ({move}) was a blunder.", { ply, move }),
    },
    preferred: {
      inaccuracy: (ply, move, better) => I18n.t("Move {ply} ({move}) was an inaccuracy; the computer preferred {better}.", { ply, move, better }),
      mistake: (ply, move, better) => I18n.t("Move {ply} ({move}) was a mistake; the computer preferred {better}.", { ply, move, better }),
      blunder: (ply, move, better) => I18n.t("Move {ply} ({move}) was a blunder; the computer preferred {better}.", { ply, move, better }),
    },
  };
  const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  const COUNTED = ["inaccuracy", "mistake", "blunder"];
  const POLL_MS = 1000;
  const $ = (id) => document.getElementById(id);
  const Q = window.Quadrille;

  Q.part("analysis", (page) => {
    const box = $("analysis");
    if (!box || page.embed) return {};
    const url = `/api/matches/${page.matchId}/analysis`;
    let answer = null;       // the server's last answer: {status, progress, plies, summary}
    let asked = false;       // the stored analysis has been asked for once
    let poller = null;
    const graph = window.QuadrilleAnalysisGraph.mount($("analysis-graph"), page);

    // -- talking to the server -----------------------------------------------------------------------------------
    async function call(method) {
      const headers = {};
      const token = page.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      else if (window.QuadrilleApi && window.QuadrilleApi.csrf) headers["X-CSRFToken"] = window.QuadrilleApi.csrf;
      const response = await fetch(url, { method, headers, credentials: "same-origin" });
      const body = await response.json().catch(() => ({}));
      return { ok: response.ok, status: response.status, body };
    }

    async function load() {
      asked = true;
      const got = await call("GET").catch(() => null);
      if (got && got.ok) take(got.body);
      else page.render();
    }

    async function analyse() {
      asked = true;
      $("analyse").disabled = true;
      const got = await call("POST").catch(() => null);
      $("analyse").disabled = false;
      if (!got) return page.message(I18n.t("The server did not answer."), "error");
      if (!got.ok) return page.message(got.body.reason || I18n.t("The analysis was refused."), "error");
      take(got.body);
    }
    page.analyse = analyse;
    page.analysable = () => eligible(page.state()) && !waiting() && !fresh();

    function take(body) {
      answer = body;
      clearTimeout(poller);
      poller = null;
      if (waiting()) poll();
      page.render(); // every part: the result screen's button follows too
    }

    // Asked again every POLL_MS while queued or running, never while the tab is hidden (it resumes when shown).
    function poll() {
      if (poller || document.hidden) return;
      poller = setTimeout(async () => {
        poller = null;
        const got = await call("GET").catch(() => null);
        if (got && got.ok) take(got.body);
        else if (waiting()) poll();
      }, POLL_MS);
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden && waiting()) poll(); });

    // -- what the page may show ----------------------------------------------------------------------------------
    // An online game under way is never analysed (it would help a player during the game).
    const eligible = (state) => !!state.outcome || (state.mode && state.mode !== "online");
    const waiting = () => !!answer && (answer.status === "queued" || answer.status === "running");
    const plies = () => (answer && answer.status === "done" && answer.plies) || [];
    // The analysis belongs to this game's line: its moves are the game's first moves (a take-back on one screen
    // may have left it behind).
    function belongs(state) {
      const list = plies();
      if (!list.length || list.length > state.moves.length) return false;
      return list.every((p, i) => p.move === undefined || p.move === state.moves[i]);
    }
    const fresh = () => belongs(page.state()) && plies().length === page.state().moves.length;

    // -- drawing -------------------------------------------------------------------------------------------------
    function render() {
      const state = page.state();
      const show = eligible(state);
      box.hidden = !show || state.moves.length === 0;
      if (box.hidden) { markBoard([]); return; }
      if (!asked) { load(); return; }
      const ok = belongs(state);
      const button = $("analyse");
      button.hidden = waiting() || fresh();
      button.textContent = ok ? WORDS.again(state.moves.length - plies().length) : WORDS.analyse;
      renderProgress();
      $("analysis-done").hidden = !ok;
      markMoves(ok ? plies() : []);
      if (!ok) { markBoard([]); return; }
      const shown = page.shownPly() === null ? state.moves.length : page.shownPly();
      graph.draw(answer, state, shown);
      renderCounts(state);
      renderBest(shown);
    }

    function renderProgress() {
      const bar = $("analysis-progress");
      const line = $("analysis-status");
      bar.hidden = !waiting();
      if (waiting()) bar.value = Math.max(0, Math.min(1, Number(answer.progress) || 0));
      const failed = answer && answer.status === "failed";
      line.textContent = !answer ? "" : answer.status === "queued" ? WORDS.queued
        : answer.status === "running" ? WORDS.running(Math.round((Number(answer.progress) || 0) * 100))
        : failed ? WORDS.failed : "";
      line.hidden = !line.textContent;
    }

    function countsText(counts) {
      const parts = COUNTED.filter((c) => counts && counts[c] > 0)
        .map((c) => WORDS.count[c](counts[c]));
      return parts.length ? parts.join(", ") : WORDS.none;
    }

    function renderCounts(state) {
      const list = $("analysis-counts");
      const summary = answer.summary || {};
      list.replaceChildren(...state.seats.map((s) => {
        const li = document.createElement("li");
        li.dataset.seat = s.seat;
        li.className = `seat-${s.seat}`;
        const who = document.createElement("b");
        who.textContent = `${page.label(s.seat)}: `;
        li.append(who, countsText(summary[String(s.seat)]));
        return li;
      }));
    }

    // The move list (match-moves.js draws it): each classed move gets its mark and the class in its name.
    function markMoves(list) {
      for (const b of document.querySelectorAll("#move-list button.mv")) {
        const p = list[Number(b.dataset.ply) - 1];
        const cls = p && MARKS[p.class] ? p.class : "";
        if ((b.dataset.class || "") === cls) continue;
        const old = b.querySelector(".mv-mark");
        if (old) old.remove();
        const label = (b.getAttribute("aria-label") || "").replace(/, (inaccuracy|mistake|blunder)$/, "");
        if (cls) {
          b.dataset.class = cls;
          const mark = document.createElement("span");
          mark.className = "mv-mark";
          mark.textContent = MARKS[cls];
          b.append(mark);
          b.setAttribute("aria-label", `${label}, ${cls}`);
        } else {
          delete b.dataset.class;
          b.setAttribute("aria-label", label);
        }
      }
    }

    // The best move in the position shown (plies[k].best is the best before move k + 1), lit on the board by
    // the cells the server named and said in words (a swatch of the board's ring beside them); and, when the move
    // that led here was classed, what the computer preferred instead.
    function renderBest(shown) {
      const list = plies();
      const here = list[shown];
      const named = (k) => (answer.best_names || [])[k] || list[k].best;
      markBoard((answer.best_cells || [])[shown] || []);
      const played = list[shown - 1];
      const better = played && named(shown - 1);
      const classed = played && MARKS[played.class]
        ? (better ? WORDS.preferred : WORDS.classed)[played.class](shown, page.moveName(page.state(), shown - 1), better) : "";
      $("analysis-classed").textContent = classed;
      $("analysis-classed").hidden = !classed;
      const best = $("analysis-best");
      best.hidden = !(here && here.best);
      if (!best.hidden) {
        const swatch = document.createElement("span");
        swatch.className = "best-swatch";
        swatch.setAttribute("aria-hidden", "true");
        best.replaceChildren(swatch, WORDS.bestHere(here.seat ? page.label(here.seat) : "", named(shown)));
      }
    }

    function markBoard(cells) {
      const area = $("board-area");
      for (const cell of area.querySelectorAll("[data-best]")) delete cell.dataset.best;
      for (const attrs of cells) {
        const selector = ".cell" + Object.entries(attrs).map(([k, v]) => `[data-${k}="${CSS.escape(String(v))}"]`).join("");
        for (const cell of area.querySelectorAll(selector)) cell.dataset.best = "1";
      }
    }

    $("analyse").addEventListener("click", analyse);
    // "my games" links a finished game here with #analyse: the analysis is asked for at once.
    if (/(?:^#|&)analyse(?:&|$)/.test(window.location.hash || "")) {
      history.replaceState(null, "", window.location.pathname + window.location.search);
      if (eligible(page.state())) analyse();
    }

    return { render, key: (event) => graph.key(event) };
  });
})();
