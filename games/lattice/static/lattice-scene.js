// Lattice Checkers' 3D view (three.js, vendored in static/vendor/three/, loaded by the controller lattice.js only when
// the view is first shown): the scene drawn from the server's view and the marks the controller sends (targets,
// selection, the previewed move), the move just played animated, and a frame loop that draws only when something
// changed. The camera and picking are lattice-orbit.js's; the WebGL probe (probeWebgl) is here, beside what needs it.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const Lattice = (window.QuadrilleLattice = window.QuadrilleLattice || {});
  const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const lastOf = (list) => list[list.length - 1];

  // ---------------------------------------------------------------- the 3D view
  // Built once three.js has loaded; rebuilt when the lattice size changes. Everything is instanced, so a frame
  // is a handful of draw calls even on the 333 lattice.
  Lattice.createScene = function createScene(THREE, host, hooks) {
    const canvas = document.createElement("canvas");
    canvas.className = "lattice-canvas";
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", I18n.t("3D view of the lattice. The levels view below shows the same position and takes the same clicks."));
    // Multisampling is cheap on a graphics card and expensive on a software renderer, where it is left off.
    const software = hooks.software;
    const renderer = new THREE.WebGLRenderer({ canvas, antialias: !software, powerPreference: "high-performance" });
    const basePixelRatio = Math.min(window.devicePixelRatio || 1, 2);
    host.insertBefore(canvas, host.firstChild);

    const scene = new THREE.Scene();
    // The stage's colour is the theme's (--stage); a change of theme repaints it (quadrille-theme).
    const stageColour = () => getComputedStyle(host).getPropertyValue("--stage").trim() || "#1b2230";
    scene.background = new THREE.Color(stageColour());
    const camera = new THREE.PerspectiveCamera(38, 1, 0.1, 500);
    scene.add(camera);
    scene.add(new THREE.AmbientLight(0xffffff, 0.9));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(0.4, 0.8, 1);
    camera.add(sun); // a head light: the lit side always faces the viewer
    const root = new THREE.Group();
    scene.add(root);

    const srgb = (rgb) => new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.SRGBColorSpace);
    const C = {
      node: srgb([0.7, 0.8, 0.7]), nodeEnd: srgb([0.7, 0.99, 0.7]), bond: srgb([0.95, 0.85, 0.2]),
      green: srgb([0.18, 0.85, 0.3]), greenHot: srgb([0.5, 1, 0.45]), select: srgb([1, 0.75, 0.1]),
      movable: srgb([1, 1, 1]), victim: srgb([1, 0.15, 0.15]), last: srgb([0.55, 0.85, 1]),
    };
    const unit = new THREE.Vector3(0, 1, 0);
    const tmp = { m: new THREE.Matrix4(), q: new THREE.Quaternion(), v: new THREE.Vector3(), s: new THREE.Vector3() };

    function instanced(geometry, material, capacity) {
      const mesh = new THREE.InstancedMesh(geometry, material, Math.max(1, capacity));
      mesh.count = 0;
      mesh.frustumCulled = false;
      mesh.setColorAt(0, new THREE.Color(1, 1, 1)); // creates instanceColor
      root.add(mesh);
      return mesh;
    }
    const phong = (extra) => new THREE.MeshPhongMaterial({ color: 0xffffff, shininess: 60, specular: 0x333333, ...extra });
    const glass = (opacity) => new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity, depthWrite: false });

    // A star: the ball with its six axis vertices pulled out into spikes, as in the original.
    function starGeometry() {
      const g = new THREE.OctahedronGeometry(0.46, 2);
      const p = g.attributes.position;
      for (let k = 0; k < p.count; k++) {
        const x = p.getX(k), y = p.getY(k), z = p.getZ(k);
        const onAxis = [x, y, z].filter((c) => Math.abs(c) < 1e-6).length === 2;
        if (onAxis) p.setXYZ(k, x * 2.3, y * 2.3, z * 2.3);
      }
      g.computeVertexNormals();
      return g;
    }

    let lattice = null; // static part for one size: positions, meshes
    let size = null;
    let flipped = false;
    let marks = null; // what to highlight (from the renderer)
    let anim = null;

    function place(mesh, k, pos, scale, color) {
      tmp.s.set(scale, scale, scale);
      tmp.m.compose(pos, tmp.q.identity(), tmp.s);
      mesh.setMatrixAt(k, tmp.m);
      if (color) mesh.setColorAt(k, color);
    }
    function rod(mesh, k, a, b, radius, color) {
      tmp.v.subVectors(b, a);
      const len = tmp.v.length();
      tmp.q.setFromUnitVectors(unit, tmp.v.normalize());
      tmp.s.set(radius, len, radius);
      const mid = a.clone().add(b).multiplyScalar(0.5);
      tmp.m.compose(mid, tmp.q, tmp.s);
      mesh.setMatrixAt(k, tmp.m);
      if (color) mesh.setColorAt(k, color);
    }
    function done(mesh, n) {
      mesh.count = n;
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    }

    function label(text, color) {
      const c = document.createElement("canvas");
      c.width = c.height = 64;
      const g = c.getContext("2d");
      g.font = "bold 44px system-ui, sans-serif";
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillStyle = color;
      g.fillText(text, 32, 35);
      const tex = new THREE.CanvasTexture(c);
      tex.colorSpace = THREE.SRGBColorSpace;
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: tex, depthWrite: false, transparent: true }));
      sprite.scale.set(1.1, 1.1, 1.1);
      return sprite;
    }

    function build(view) {
      if (lattice) {
        root.remove(...root.children);
        lattice.dispose.forEach((d) => d.dispose());
      }
      const [W, H, L] = view.grid;
      const pos = {};
      const at = (j, i, l) => new THREE.Vector3(2 * j - (W - 1), 2 * l - (L - 1), -(2 * i - (H - 1)));
      for (const n of view.nodes) pos[n.id] = at(n.x, n.y, n.z);
      const N = view.nodes.length;
      // a software renderer pays per vertex too: fewer facets there
      const sphere = software ? new THREE.SphereGeometry(1, 14, 10) : new THREE.SphereGeometry(1, 28, 18);
      const small = software ? new THREE.SphereGeometry(1, 8, 6) : new THREE.SphereGeometry(1, 14, 10);
      const cyl = new THREE.CylinderGeometry(1, 1, 1, software ? 5 : 8, 1, true);
      const star = starGeometry();
      const mats = [phong(), phong(), phong({ shininess: 20 }), phong(), glass(0.4), glass(0.35), glass(0.55), phong({ emissive: 0x113311 })];
      const m = {
        nodes: instanced(small, mats[0], N),
        bonds: instanced(cyl, mats[2], view.bonds.length),
        balls: instanced(sphere, mats[1], N + 16),
        stars: instanced(star, mats[3], N + 16),
        halos: instanced(sphere, mats[4], 2 * N + 1),
        victims: instanced(sphere, mats[5], 32),
        trail: instanced(cyl, mats[6], 64),
        targets: instanced(sphere, mats[7], N),
      };
      // the static lattice: the bonds between neighbouring levels (the nodes are placed with the pieces)
      view.bonds.forEach(([a, b], k) => rod(m.bonds, k, pos[a], pos[b], 0.04, C.bond));
      done(m.bonds, view.bonds.length);
      // axis labels along the lattice's edges: x at the front, y on the left, levels up the front right edge
      // (the default view looks from the front left, so none of them stands in front of the lattice)
      const textures = [];
      const addLabel = (text, p, color) => { const s = label(text, color); s.position.copy(p); root.add(s); textures.push(s.material.map, s.material); };
      view.axes.x.forEach((t, j) => addLabel(t, at(j, -0.9, -0.5), "#ffe27a"));
      view.axes.y.forEach((t, i) => addLabel(t, at(-0.9, i, -0.5), "#9fd7ff"));
      view.axes.level.forEach((t, l) => addLabel(t, at(W - 1 + 0.9, -0.9, l), "#c9f7c9"));
      lattice = { pos, m, W, H, L, radius: Math.hypot(W - 1, H - 1, L - 1) + 1.8, dispose: [sphere, small, cyl, star, ...mats, ...textures] };
      size = view.size;
      orbit.resetCamera();
    }

    // ---- the camera and picking (lattice-orbit.js)
    const orbit = Lattice.orbit(THREE, { camera, canvas, root, lattice: () => lattice, invalidate, hooks });

    function resize() {
      const w = host.clientWidth, h = host.clientHeight;
      if (!w || !h) return;
      if (!ratio) setRatio(basePixelRatio);
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      invalidate();
    }
    const observer = new ResizeObserver(resize);
    observer.observe(host);


    // ---- drawing the position
    function pieceColor(view, seat) { return srgb(view.colors[seat].rgb); }

    function update(view, nextMarks, animate) {
      if (size !== view.size) build(view);
      marks = nextMarks;
      if (animate !== undefined) anim = animate && !reducedMotion() ? animate : null; // undefined: keep going
      compose(performance.now());
    }

    function compose(now) {
      const view = marks.view;
      const { pos, m } = lattice;
      const flip = marks.flipped;
      if (flip !== flipped) { flipped = flip; root.rotation.x = flip ? Math.PI : 0; root.updateMatrixWorld(); }
      // the moving piece during an animation: where it is along its path, and the victims not yet jumped
      let moving = null, progress = 1;
      if (anim) {
        const hops = anim.path.length - 1;
        // (a frame's time stamp may be a little older than the moment the animation was made)
        const t = Math.max(0, Math.min(1, (now - anim.t0) / (anim.hop * Math.max(1, hops))));
        progress = t;
        if (t >= 1) anim = null;
        else if (hops > 0) {
          const f = t * hops, k = Math.min(hops - 1, Math.floor(f)), u = f - k;
          const a = pos[anim.path[k]], b = pos[anim.path[k + 1]];
          moving = { id: lastOf(anim.path), at: a.clone().lerp(b, u).setY(a.y + (b.y - a.y) * u + Math.sin(Math.PI * u) * (anim.capture ? 1.2 : 0.4)), hop: f };
        } else {
          moving = { id: anim.path[0], grow: t };
        }
      }
      const colors = { 1: pieceColor(view, "1"), 2: pieceColor(view, "2") };
      let nb = 0, ns = 0, nn = 0;
      for (const n of view.nodes) {
        // a node's own small sphere is drawn only where no piece hides it
        if (!n.seat || (moving && moving.id === n.id)) place(m.nodes, nn++, pos[n.id], 0.3, n.z === 0 || n.z === lattice.L - 1 ? C.nodeEnd : C.node);
        if (!n.seat) continue;
        let p = pos[n.id], scale = 1;
        if (moving && moving.id === n.id) {
          if (moving.at) p = moving.at; else scale = Math.max(0.05, moving.grow);
        }
        if (n.star && !(moving && moving.at && anim && anim.promotes && moving.hop < anim.promoteAt)) place(m.stars, ns++, p, scale, colors[n.seat]);
        else place(m.balls, nb++, p, 0.5 * scale, colors[n.seat]);
      }
      if (anim) {
        for (const v of anim.victims) {
          const left = Math.max(0, Math.min(1, (v.hop + 1) - (moving && moving.hop !== undefined ? moving.hop : 99)));
          if (left <= 0) continue;
          if (v.star) place(m.stars, ns++, pos[v.id], left, colors[v.seat]);
          else place(m.balls, nb++, pos[v.id], 0.5 * left, colors[v.seat]);
        }
      }
      done(m.balls, nb);
      done(m.stars, ns);
      done(m.nodes, nn);

      // green targets (the final nodes), the previewed move hop by hop, its victims, the selection
      let nt = 0, nh = 0, nv = 0, nr = 0;
      const hot = marks.preview ? lastOf(marks.preview.path) : null;
      for (const id of marks.targets) {
        place(m.targets, nt++, pos[id], id === hot ? 0.46 : 0.38, id === hot ? C.greenHot : C.green);
        place(m.halos, nh++, pos[id], 0.62, C.green);
      }
      if (marks.selected) place(m.halos, nh++, pos[marks.selected], 0.78, C.select);
      for (const id of marks.movable) place(m.halos, nh++, pos[id], 0.64, C.movable);
      const trail = (path, radius, color) => {
        for (let k = 0; k + 1 < path.length; k++) rod(m.trail, nr++, pos[path[k]], pos[path[k + 1]], radius, color);
      };
      if (marks.preview) {
        trail(marks.preview.path, 0.1, C.greenHot);
        marks.preview.path.slice(1, -1).forEach((id) => place(m.targets, nt++, pos[id], 0.22, C.greenHot));
        for (const id of marks.preview.captures) place(m.victims, nv++, pos[id], 0.72, C.victim);
      } else if (view.last && view.last.path.length > 1 && !anim) {
        trail(view.last.path, 0.07, C.last);
        for (const id of view.last.captures) place(m.victims, nv++, pos[id], 0.32, C.victim);
      }
      done(m.targets, nt);
      done(m.halos, nh);
      done(m.victims, nv);
      done(m.trail, nr);
      invalidate();
      return progress;
    }

    // ---- the frame loop: draws only when something changed (or while animating, turning or measuring).
    // On a software renderer (SwiftShader, llvmpipe) the cost is mostly per pixel: while frames follow each
    // other closely the resolution adapts to keep them coming (down to half), and once things are still
    // one frame is drawn again at full resolution, so a still picture is always sharp.
    let frameRequested = false, inFrame = false, lastFrame = 0, spin = null, refineTimer = 0;
    let quality = 1, ratio = 0;
    const intervals = [], renderMs = [], recent = [];
    function setRatio(r) {
      if (r === ratio) return;
      ratio = r;
      renderer.setPixelRatio(r);
      renderer.setSize(host.clientWidth || 1, host.clientHeight || 1, false);
    }
    function invalidate() {
      if (frameRequested || inFrame) return;
      frameRequested = true;
      requestAnimationFrame(frame);
    }
    document.addEventListener("quadrille-theme", () => { scene.background.set(stageColour()); invalidate(); });
    function frame(now) {
      frameRequested = false;
      if (!lattice || !canvas.isConnected || host.hidden) return;
      inFrame = true;
      try {
        if (anim) compose(now);
        if (spin) orbit.turn(0.015, 0);
      } finally {
        inFrame = false;
      }
      const gap = lastFrame ? now - lastFrame : Infinity;
      if (gap < 150) {
        intervals.push(gap);
        recent.push(gap);
        if (recent.length >= 6 && !(spin && spin.fixed)) {
          const mean = recent.reduce((x, y) => x + y, 0) / recent.length;
          if (mean > 30 && quality > 0.5) quality = Math.max(0.5, quality * 0.8);
          else if (mean < 20 && quality < 1) quality = Math.min(1, quality * 1.15);
          recent.length = 0;
        }
      } else recent.length = 0;
      setRatio(basePixelRatio * (spin && spin.fixed ? 1 : quality));
      const t0 = performance.now();
      renderer.render(scene, camera);
      const t1 = performance.now();
      renderMs.push(t1 - t0);
      if (intervals.length > 600) intervals.splice(0, 300);
      if (renderMs.length > 600) renderMs.splice(0, 300);
      lastFrame = now;
      if (spin) {
        if (gap < 150) spin.intervals.push(gap);
        spin.render.push(t1 - t0);
        spin.ratios.push(ratio);
        if (spin.render.length >= spin.frames) { const s = spin; spin = null; s.resolve(s); }
      }
      if (anim || spin) invalidate();
      clearTimeout(refineTimer);
      if (ratio < basePixelRatio) refineTimer = setTimeout(refine, 200);
    }
    function refine() {
      if (frameRequested || anim || spin || !lattice || host.hidden) return;
      setRatio(basePixelRatio);
      renderer.render(scene, camera);
    }
    const stats = (xs) => {
      const s = xs.slice().sort((a, b) => a - b);
      const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
      return { mean: +mean.toFixed(2), p50: +(s[Math.floor(s.length / 2)] || 0).toFixed(2),
        p95: +(s[Math.floor(s.length * 0.95)] || 0).toFixed(2), max: +(lastOf(s) || 0).toFixed(2) };
    };
    function measure(frames = 120, options = {}) {
      // Turn the view a little every frame and draw each one. `interval_ms` is the time between frames shown
      // (the frame time a player sees), `render_ms` the script's own share of it (three.js submitting the
      // frame). With {fixed: true} the resolution stays at full instead of adapting.
      return new Promise((resolve) => {
        lastFrame = 0;
        spin = { frames, fixed: !!options.fixed, intervals: [], render: [], ratios: [], resolve: (s) => {
          const iv = stats(s.intervals);
          resolve({ frames: s.render.length, interval_ms: iv, fps: +(1000 / (iv.mean || 1)).toFixed(1),
            render_ms: stats(s.render), pixel_ratio: { full: basePixelRatio, last: lastOf(s.ratios), min: Math.min(...s.ratios) },
            canvas: [canvas.width, canvas.height], software, calls: renderer.info.render.calls, triangles: renderer.info.render.triangles });
        } };
        invalidate();
      });
    }

    resize();
    return {
      update, measure, resize,
      project: orbit.project, pickAt: orbit.pickAt, resetCamera: orbit.resetCamera, zoom: orbit.zoom, turn: orbit.turn,
      pan: orbit.pan,
      animating: () => !!anim,
      camera: orbit.state,
      frameTimes: () => ({ intervals: intervals.slice(), render: renderMs.slice() }),
      canvas,
      redraw: invalidate,
    };
  };

  Lattice.probeWebgl = function probeWebgl() {
    // null without WebGL, else whether it is a software renderer (then the 3D view draws more cheaply)
    try {
      const c = document.createElement("canvas");
      const gl = c.getContext("webgl2") || c.getContext("webgl");
      if (!gl) return null;
      const info = gl.getExtension("WEBGL_debug_renderer_info");
      const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
      const lose = gl.getExtension("WEBGL_lose_context");
      if (lose) lose.loseContext();
      return { software: /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name), name };
    } catch (e) { return null; }
  };
})();
