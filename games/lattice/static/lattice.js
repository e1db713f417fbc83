// Lattice Checkers renderer, the controller: a 3D view (lattice-scene.js and lattice-orbit.js, three.js loaded when
// first shown, after a WebGL probe) and a flat view of the levels side by side (lattice-flat.js), both drawn from
// the server's view and both taking clicks; static/lattice.scripts loads those files before this one.
//
// The server decides legality: the renderer only reads view.legal (the legal moves of the side to move,
// grouped by the node they start from), view.returns and view.pending, put into the board layer's one shape of
// targets (static/js/board/selection.js). Picking a piece and then one of its green targets sends that move
// string; a target reached by several capture chains offers the choice.
// What is selected, hovered or under the keyboard cursor is UI state kept here, never sent.
//
// For tests and the console: window.latticeView (project a node to viewport coordinates, frame times).
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const STORE_3D = "quadrille.lattice.3d";

  const rgbCss = (rgb) => `rgb(${rgb.map((c) => Math.round(c * 255)).join(", ")})`;
  const light = (rgb) => 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] > 0.55;
  const lastOf = (list) => list[list.length - 1];
  const Motion = window.QuadrilleMotion;
  const Lattice = window.QuadrilleLattice; // lattice-scene.js, lattice-orbit.js, lattice-flat.js
  const Board = window.QuadrilleBoard; // static/js/board/: the grid, the keyboard cursor, the one shape of targets


  const { sideLabel, pieceName } = Lattice; // lattice-flat.js

  // A touch screen (no hover, a coarse pointer) has no keys to press: its texts name none (quadrille.css hides
  // the pages' .key-hint there too).
  const touchScreen = () => !!window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;

  // ---------------------------------------------------------------- the renderer
  Quadrille.register("lattice", {
    sides: true, // two sides: their colours are said as sides (QuadrilleBoard.sideName)
    flips: true,
    captured: (state) => !!(state.view.last && state.view.last.captures && state.view.last.captures.length),
    seatLabel: (seat, state) => sideLabel(seat, state && state.view),
    reasonText(reason, outcome, names) {
      if (reason === "stuck") return I18n.t("Neither side can move: the side with more pieces on the far level wins.");
      if (reason === "eliminated") {
        const loser = outcome.winners.length ? 3 - outcome.winners[0] : null;
        return loser ? I18n.t("{side} has no pieces left on the lattice.", { side: Board.sideName(names[loser - 1]) })
          : I18n.t("Both sides ran out of pieces.");
      }
      return undefined;
    },
    scoreText: (outcome, names, state) => {
      const score = outcome.scores && outcome.scores.length ? outcome.scores : state && state.view.score;
      return score ? I18n.t("Pieces on the far level: {scores}",
        { scores: `${Board.sideName(names[0])} ${score[0]} · ${Board.sideName(names[1])} ${score[1]}` }) : "";
    },

    mount(area, ctx) {
      const $ = (sel) => area.querySelector(sel);
      const root = $(".lattice");
      const stage = $("#lattice-stage");
      // the vendored three.js, by its content-hashed URL (the server's static_url, in board.html)
      const THREE_URL = root.dataset.three;
      let view = null, live = true, drawnMoves = -1, drawnMatchVersion = -1;
      const ui = { hover: null, armed: null, chain: {}, focusMove: null };
      const selection = Board.selection(); // the piece picked up among the server's targets
      let scene3d = null;
      const api = (window.latticeView = {
        ready: false, webgl: null, error: "",
        project: (id) => (scene3d ? scene3d.project(id) : null),
        pickAt: (x, y) => (scene3d ? scene3d.pickAt(x, y) : null),
        frameTimes: () => (scene3d ? scene3d.frameTimes() : { intervals: [], render: [] }),
        measure: (n, options) => (scene3d ? scene3d.measure(n, options) : Promise.resolve(null)),
        idle: () => !scene3d || !scene3d.animating(),
        camera: () => (scene3d ? scene3d.camera() : null),
        selected: () => selection.selected,
        marks: () => lastMarks,
      });

      // -- the flat view (lattice-flat.js) ------------------------------------------------------------
      const flat = Lattice.flat(area, { flipped: () => flippedView() });
      const levelsBox = flat.box;
      const cellOf = flat.cellOf;

      // -- what to show: targets, preview, selection ------------------------------------------------
      // The one shape of targets (board/selection.js): each piece's moves (chains) by the node they start from, or,
      // when a captured ball is due back, the returns with no piece to pick. Nothing to play on an earlier position.
      function legalOf(v, isLive) {
        if (!v || !isLive || v.over) return new Map();
        if (v.pending === "return") {
          return Board.legalMap([["", v.returns.map((id) => ({ to: id, move: "+" + id, path: [id], captures: [], promotes: false }))]]);
        }
        return Board.legalMap(Object.entries(v.legal).map(([from, moves]) => [from, moves.map((e) => ({ ...e, to: lastOf(e.path) }))]));
      }
      // final node -> the moves (chains) of the selected piece that end there; the returns when one is due
      const movesByTarget = () => selection.targets();
      function previewMove(targets) {
        if (ui.focusMove) {
          for (const list of targets.values()) for (const e of list) if (e.move === ui.focusMove) return e;
        }
        const id = ui.hover || ui.armed;
        if (id && targets.has(id)) {
          const list = targets.get(id);
          return list[(ui.chain[id] || 0) % list.length];
        }
        return null;
      }
      function movable() {
        if (!view || !live || view.over || view.pending !== "move" || selection.selected) return [];
        if (!ctx.canPlay()) return [];
        return selection.sources();
      }

      // -- input -----------------------------------------------------------------------------------
      function say(text) { const p = $("#lattice-info"); if (p.textContent !== text) p.textContent = text; }

      function activate(id) {
        if (!view || !live) return;
        if (view.over) return say(I18n.t("The game is over."));
        const targets = movesByTarget();
        if (view.pending === "return") {
          if (targets.has(id)) return play("+" + id);
          return say(I18n.t("{side} promoted: bring a captured ball back to a green node of level {level}.",
            { side: sideLabel(view.turn, view), level: view.sides[view.turn].first_level }));
        }
        if (selection.selected && targets.has(id)) {
          const list = targets.get(id);
          if (list.length === 1) return play(list[0].move);
          // several capture chains end on this node: each click shows the next, the list plays one
          if (ui.armed === id) ui.chain[id] = ((ui.chain[id] || 0) + 1) % list.length;
          else { ui.armed = id; ui.chain[id] = ui.chain[id] || 0; }
          ui.focusMove = null;
          render();
          const shown = list[ui.chain[id]];
          const params = { count: list.length, node: id, number: ui.chain[id] + 1, move: shown.move, last: Math.min(9, list.length) };
          return say(touchScreen() // no keys to press on a touch screen
            ? I18n.n("{count} capture chain ends on {node}; showing {number}: {move}. Click {node} again for the next, or play one from the list.",
              "{count} capture chains end on {node}; showing {number}: {move}. Click {node} again for the next, or play one from the list.",
              list.length, params)
            : I18n.n("{count} capture chain ends on {node}; showing {number}: {move}. Click {node} again for the next, or play one from the list (keys 1–{last}).",
              "{count} capture chains end on {node}; showing {number}: {move}. Click {node} again for the next, or play one from the list (keys 1–{last}).",
              list.length, params));
        }
        if (selection.isSource(id)) {
          selection.toggle(id);
          ui.armed = null; ui.chain = {}; ui.focusMove = null;
          render();
          return;
        }
        const hadSelection = !!selection.selected;
        selection.clear(); ui.armed = null; ui.focusMove = null;
        render();
        const node = view.nodes.find((n) => n.id === id);
        if (!hadSelection && node && node.seat === view.turn) {
          say(view.must_capture ? I18n.t("{node} cannot capture, and a capture is mandatory: pick one of {nodes}.",
            { node: id, nodes: Object.keys(view.legal).join(", ") }) : I18n.t("{node} has no move now.", { node: id }));
        }
      }
      function play(move) {
        selection.clear(); ui.armed = null; ui.chain = {}; ui.focusMove = null; ui.hover = null;
        render();
        ctx.play(move);
      }
      function hover(id) {
        if (ui.hover === id) return;
        ui.hover = id;
        const hud = $("#lattice-hud");
        if (hud) {
          const n = id && view && view.nodes.find((x) => x.id === id);
          hud.textContent = n ? `${id} · ${I18n.t("level {level}", { level: n.level })}${n.seat ? " · " + pieceName(n, view) : ""}` : "";
        }
        render(true);
      }

      levelsBox().addEventListener("click", (e) => {
        const cell = e.target.closest(".lattice-levels .cell[data-node]");
        if (!cell) return;
        flat.setCursor(cell, false);
        activate(cell.dataset.node);
      });
      levelsBox().addEventListener("mouseover", (e) => {
        const cell = e.target.closest(".lattice-levels .cell[data-node]");
        hover(cell ? cell.dataset.node : null);
      });
      levelsBox().addEventListener("mouseleave", () => hover(null));
      levelsBox().addEventListener("focusin", (e) => {
        const cell = e.target.closest(".cell");
        if (cell) { flat.follow(cell); hover(cell.dataset.node || null); }
      });

      // the choice list: every move of the selected piece (or every return), a button each
      const choices = $("#lattice-choices");
      choices.addEventListener("click", (e) => {
        const b = e.target.closest("button[data-move]");
        if (b && live) play(b.dataset.move);
      });
      const previewButton = (e) => {
        const b = e.target.closest && e.target.closest("button[data-move]");
        const next = b ? b.dataset.move : null;
        if (next !== ui.focusMove) { ui.focusMove = next; render(true); }
      };
      choices.addEventListener("mouseover", previewButton);
      choices.addEventListener("focusin", previewButton);
      choices.addEventListener("mouseleave", () => { if (ui.focusMove) { ui.focusMove = null; render(true); } });
      choices.addEventListener("focusout", () => { if (ui.focusMove && !choices.contains(document.activeElement)) { ui.focusMove = null; render(true); } });

      // -- the 3D view -------------------------------------------------------------------------------
      const toggle = $("#lattice-3d-toggle");
      function want3d() { try { return localStorage.getItem(STORE_3D) !== "off"; } catch (e) { return true; } }
      // A small frame (a phone-sized embed) plays on the flat view alone, its nodes big enough to tap: lattice.css
      // hides the stage there, and the 3D view is not loaded (nor the player's preference changed).
      const smallFrame = () => document.body.classList.contains("embed") && window.matchMedia("(max-width: 480px)").matches;
      function show3d(on, remember = true) {
        stage.hidden = !on;
        toggle.setAttribute("aria-pressed", String(on));
        toggle.textContent = on ? I18n.t("Hide the 3D view") : I18n.t("Show the 3D view");
        if (remember) try { localStorage.setItem(STORE_3D, on ? "on" : "off"); } catch (e) { /* storage-less frame */ }
        if (on && !loading3d) load3d();
        if (on && scene3d) { scene3d.resize(); render(true); }
      }
      toggle.addEventListener("click", () => show3d(stage.hidden));
      function no3d(reason) {
        api.webgl = false;
        api.error = reason;
        stage.hidden = false;
        stage.classList.add("unavailable");
        $("#lattice-note").textContent = I18n.t("No 3D view here: {reason} Play on the levels view below.", { reason });
        toggle.hidden = true;
      }
      // three.js (750 KB, minified) is fetched only when the 3D view is first shown: a player who keeps it
      // hidden, or whose browser has no WebGL, never downloads it.
      let loading3d = null;
      function load3d() {
        $("#lattice-note").textContent = I18n.t("Loading the 3D view…");
        loading3d = import(THREE_URL).then((THREE) => {
          try {
            scene3d = Lattice.createScene(THREE, stage, { pick: activate, hover, software: probe.software });
          } catch (err) {
            return no3d(I18n.t("WebGL could not start ({error}).", { error: err && err.message ? err.message : err }));
          }
          api.webgl = true;
          $("#lattice-note").textContent = "";
          render();
          api.ready = true;
        }).catch((err) => no3d(I18n.t("three.js did not load ({error}).", { error: err && err.message ? err.message : err })));
      }
      const probe = Lattice.probeWebgl();
      if (!probe) {
        no3d(I18n.t("this browser has no WebGL."));
      } else {
        toggle.hidden = false;
        show3d(want3d() && !smallFrame(), false);
      }

      // -- drawing ---------------------------------------------------------------------------------
      function flippedView() {
        if (ctx.flipped) return ctx.flipped(); // the match page: T's player, or the flip button
        const seats = ctx.mySeats();
        return seats.length === 1 && seats[0] === 2; // T at the bottom for the player who holds only T
      }

      let lastMarks = null; // what the 3D view was last told to show (for tests)
      let pendingAnimation; // set by draw for the next render: an animation of the move just played, or null
      function render(quick) {
        if (!view) return;
        const targets = movesByTarget();
        const preview = previewMove(targets);
        const mov = movable();
        if (!quick) { renderChoices(targets); renderInfo(targets); }
        flat.render(view, { targets, preview, movable: mov, selected: selection.selected, live, flipped: flippedView() });
        lastMarks = { targets: [...targets.keys()], preview: preview ? preview.move : null, selected: selection.selected, movable: mov, flipped: flippedView() };
        if (scene3d && !stage.hidden) {
          scene3d.update(view, { view, ...lastMarks, preview }, pendingAnimation);
          pendingAnimation = undefined;
        }
      }

      function renderChoices(targets) {
        choices.innerHTML = "";
        const list = [];
        if (view.pending === "return" && live) list.push(...[...targets.values()].map((l) => l[0]));
        else if (selection.selected) for (const l of targets.values()) list.push(...l);
        choices.hidden = !list.length;
        if (!list.length) return;
        const title = document.createElement("span");
        title.className = "muted";
        title.textContent = view.pending === "return" ? I18n.t("Return a ball to:")
          : I18n.t("Moves of {node}:", { node: selection.selected });
        choices.appendChild(title);
        const armed = ui.armed && targets.has(ui.armed) ? targets.get(ui.armed) : null;
        list.forEach((e) => {
          const b = document.createElement("button");
          b.type = "button";
          b.dataset.move = e.move;
          const n = armed ? armed.indexOf(e) : -1;
          b.className = "lattice-choice" + (n >= 0 ? " armed" : "");
          b.textContent = (n >= 0 && n < 9 ? `${n + 1}. ` : "") + e.move + (e.captures.length ? ` (×${e.captures.length})` : "") + (e.promotes ? " ★" : "");
          b.setAttribute("aria-label", (e.move.startsWith("+") ? I18n.t("return a ball to {node}", { node: e.move.slice(1) })
            : I18n.t("play {move}", { move: e.move }))
            + (e.captures.length ? ", " + I18n.t("captures {nodes}", { nodes: e.captures.join(", ") }) : "")
            + (e.promotes ? ", " + I18n.t("promotes") : ""));
          choices.appendChild(b);
        });
      }

      function renderInfo(targets) {
        const colorVars = { "--c1": rgbCss(view.colors["1"].rgb), "--c2": rgbCss(view.colors["2"].rgb),
          "--on1": light(view.colors["1"].rgb) ? "#222" : "#fff", "--on2": light(view.colors["2"].rgb) ? "#222" : "#fff" };
        for (const [k, v] of Object.entries(colorVars)) root.style.setProperty(k, v);
        for (const b of area.querySelectorAll("[data-score]")) b.textContent = view.score[Number(b.dataset.score) - 1];
        const more = $("#lattice-score .muted");
        if (more) {
          more.textContent = "· " + I18n.t("on the lattice {first} · {second} · captured {first_captured} · {second_captured}",
            { first: view.on_board[0], second: view.on_board[1], first_captured: view.bench[0], second_captured: view.bench[1] });
        }
        for (const lv of view.levels) {
          const t = $(`#lattice-level-${lv.level}`);
          const first = [1, 2].find((seat) => lv.level === view.sides[seat].first_level);
          const tag = first ? ` · ${I18n.t("{side}'s first", { side: sideLabel(first, view) })}` : "";
          if (t) t.textContent = I18n.t("Level {level}", { level: lv.level }) + tag;
        }
        let text;
        if (!live) text = I18n.t("An earlier position (step to the end to play).");
        else if (view.over) text = I18n.t("Game over.");
        else {
          const side = sideLabel(view.turn, view);
          const passed = view.passed.length ? I18n.n("{sides} had no move and passed.", "{sides} had no move and passed.",
            view.passed.length, { sides: view.passed.map((s) => sideLabel(s, view)).join(", ") }) + " " : "";
          if (view.pending === "return") {
            text = passed + I18n.t("{side} promoted: click a green node of level {level} to bring a captured ball back.",
              { side, level: view.sides[view.turn].first_level });
          } else if (selection.selected) {
            const ends = [...targets.keys()];
            text = I18n.n("{node} selected: {count} target ({nodes}). Click a green node to play, the piece again to drop it.",
              "{node} selected: {count} targets ({nodes}). Click a green node to play, the piece again to drop it.",
              ends.length, { node: selection.selected, count: ends.length, nodes: ends.join(", ") });
          } else {
            const turn = view.extra_turn
              ? (view.must_capture ? I18n.t("{side} to move again (extra turn): a capture is mandatory.", { side })
                : I18n.t("{side} to move again (extra turn).", { side }))
              : (view.must_capture ? I18n.t("{side} to move: a capture is mandatory.", { side })
                : I18n.t("{side} to move.", { side }));
            text = `${passed}${turn} ` + (ctx.canPlay() ? I18n.t("Pick a piece; its targets turn green.") : "");
          }
        }
        say(text.trim());
      }

      function animationFor(prev, next) {
        // the last move, when it is the one just played on top of the position drawn before
        if (!prev || !next.last || next.move_count !== prev.move_count + 1) return null;
        const last = next.last;
        const before = Object.fromEntries(prev.nodes.map((n) => [n.id, n]));
        if (last.kind === "return") return { path: last.path, victims: [], hop: 300, t0: performance.now() };
        const far = next.sides[last.seat].far_level;
        const promoteAt = last.promoted ? last.path.findIndex((id) => Number(id.slice(2)) === far) : 99;
        return {
          path: last.path, capture: last.kind === "capture", hop: last.kind === "capture" ? 260 : 220, t0: performance.now(),
          promotes: last.promoted, promoteAt,
          victims: last.captures.map((id, k) => ({ id, seat: before[id] ? before[id].seat : 3 - last.seat, star: !!(before[id] && before[id].star), hop: k })),
        };
      }

      function draw(nextView, state, isLive) {
        const prev = view;
        if (!prev || prev.size !== nextView.size) flat.build(nextView);
        view = nextView;
        live = isLive;
        const changed = !prev || prev.move_count !== view.move_count || state.version !== drawnMatchVersion || prev.pos !== view.pos;
        selection.set(legalOf(view, live)); // the picked piece stays picked while it still moves
        if (changed) { selection.clear(); ui.armed = null; ui.chain = {}; ui.focusMove = null; }
        pendingAnimation = isLive && prev && drawnMoves >= 0 ? animationFor(prev, view) : null;
        // the flat view: the piece glides from where the move began (its cell's place, taken before the redraw)
        const glide = pendingAnimation && pendingAnimation.path.length > 1 && cellOf(pendingAnimation.path[0])
          ? { to: lastOf(pendingAnimation.path), from: cellOf(pendingAnimation.path[0]).getBoundingClientRect() } : null;
        drawnMoves = isLive ? view.move_count : -1;
        drawnMatchVersion = state.version;
        $("#lattice-paused").hidden = !(state.paused && state.seats.some((s) => s.kind === "ai") && !state.outcome);
        render();
        pendingAnimation = undefined;
        if (glide && cellOf(glide.to)) Motion.slide(cellOf(glide.to).querySelector(".piece"), glide.from);
        else if (isLive && prev && view.last && view.move_count === prev.move_count + 1 && cellOf(lastOf(view.last.path))) {
          Motion.pop(cellOf(lastOf(view.last.path)).querySelector(".piece")); // a return: the ball comes back
        }
        const cursor = flat.cursorCell();
        if (cursor && cursor.tabIndex !== 0) flat.setCursor(cursor, false);
      }

      function key(event) {
        if (event.target.closest && event.target.closest("button, a, summary, dialog")) return false;
        const k = event.key;
        const inFlat = levelsBox().contains(document.activeElement);
        const has3d = scene3d && !stage.hidden;
        const cursorKey = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(k);
        if (inFlat || (!has3d && cursorKey)) {
          if (cursorKey) { if (view) flat.moveCursor(k, view); return true; }
          if (inFlat && (k === "Enter" || k === " ")) {
            const cell = flat.cursorCell();
            if (cell.dataset.node) activate(cell.dataset.node);
            return true;
          }
        }
        if (k === "Escape" && (selection.selected || ui.armed)) {
          selection.clear(); ui.armed = null; ui.focusMove = null; render();
          return true;
        }
        if (/^[1-9]$/.test(k) && ui.armed) {
          const list = movesByTarget().get(ui.armed) || [];
          const e = list[Number(k) - 1];
          if (e) { play(e.move); return true; }
          return false;
        }
        const lower = k.length === 1 ? k.toLowerCase() : k;
        // P, R, N, M, Esc (leave) and the rest are the platform's keys, the same in every game: not handled here.
        if (!has3d) return false;
        const step = 0.12;
        if (event.shiftKey && k.startsWith("Arrow")) { // Shift+arrows pan the view (L/R/U/D in earlier releases)
          const [dx, dy] = { ArrowLeft: [-30, 0], ArrowRight: [30, 0], ArrowUp: [0, -30], ArrowDown: [0, 30] }[k];
          scene3d.pan(dx, dy);
          return true;
        }
        switch (lower) {
          case "ArrowLeft": scene3d.turn(-step, 0); break;
          case "ArrowRight": scene3d.turn(step, 0); break;
          case "ArrowUp": scene3d.turn(0, step); break;
          case "ArrowDown": scene3d.turn(0, -step); break;
          case " ": scene3d.resetCamera(); break;
          case "PageUp": case "c": scene3d.zoom(0.88); break;
          case "PageDown": case "f": scene3d.zoom(1 / 0.88); break;
          default: return false;
        }
        return true;
      }

      return { draw, key };
    },
  });
})();
