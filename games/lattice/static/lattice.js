// Lattice Checkers renderer: a 3D view (three.js, vendored in static/vendor/three/) and a flat view of the
// levels side by side, both drawn from the server's view and both taking clicks.
//
// The server decides legality: the renderer only reads view.legal (the legal moves of the side to move,
// grouped by the node they start from), view.returns and view.pending. Picking a piece and then one of its
// green targets sends that move string; a target reached by several capture chains offers the choice.
// What is selected, hovered or under the keyboard cursor is UI state kept here, never sent.
//
// For tests and the console: window.latticeView (project a node to viewport coordinates, frame times).
(function () {
  "use strict";
  const STORE_3D = "quadrille.lattice.3d";
  const SEAT_NAME = { 1: "B", 2: "T" };
  const pieceName = (n, view) => `${sideLabel(n.seat, view)} ${n.star ? "star" : "ball"}`; // "Blue ball", as the page says
  const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  const rgbCss = (rgb) => `rgb(${rgb.map((c) => Math.round(c * 255)).join(", ")})`;
  const light = (rgb) => 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] > 0.55;
  const lastOf = (list) => list[list.length - 1];
  const Motion = window.QuadrilleMotion;


  // A side is called by its colour ("Blue"), as the server names it (Game.seat_names); B and T are the rules'.
  function sideLabel(seat, view) {
    const c = view && view.colors && view.colors[seat];
    return c ? c.name.charAt(0).toUpperCase() + c.name.slice(1) : SEAT_NAME[seat] || `Player ${seat}`;
  }

  // ---------------------------------------------------------------- the 3D view
  // Built once three.js has loaded; rebuilt when the lattice size changes. Everything is instanced, so a frame
  // is a handful of draw calls even on the 333 lattice.
  function createScene(THREE, host, hooks) {
    const canvas = document.createElement("canvas");
    canvas.className = "lattice-canvas";
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "3D view of the lattice. The levels view below shows the same position and takes the same clicks.");
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
      resetCamera();
    }

    // ---- camera: an orbit around a target point
    const cam = { azimuth: 0, elevation: 0, distance: 10, target: new THREE.Vector3() };
    function resetCamera() {
      cam.azimuth = -0.55;
      cam.elevation = 0.42;
      cam.target.set(0, 0, 0);
      // the whole lattice in view: its bounding sphere fits the narrower of the two fields of view
      const half = THREE.MathUtils.degToRad(camera.fov / 2);
      const narrow = Math.min(half, Math.atan(Math.tan(half) * (camera.aspect || 1)));
      cam.distance = lattice ? lattice.radius / Math.sin(narrow) : 20;
      updateCamera();
    }
    function updateCamera() {
      cam.elevation = Math.max(-1.5, Math.min(1.5, cam.elevation));
      cam.distance = Math.max(4, Math.min(200, cam.distance));
      const ce = Math.cos(cam.elevation);
      camera.position.set(
        cam.target.x + cam.distance * ce * Math.sin(cam.azimuth),
        cam.target.y + cam.distance * Math.sin(cam.elevation),
        cam.target.z + cam.distance * ce * Math.cos(cam.azimuth));
      camera.lookAt(cam.target);
      camera.updateMatrixWorld();
      invalidate();
    }
    function pan(dxPixels, dyPixels) {
      const h = canvas.clientHeight || 1;
      const k = (2 * cam.distance * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2))) / h;
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      cam.target.addScaledVector(right, -dxPixels * k).addScaledVector(up, dyPixels * k);
      updateCamera();
    }
    function zoom(factor) { cam.distance *= factor; updateCamera(); }

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

    // ---- picking: the nearest node whose (generous) sphere the ray through the pointer meets
    const raycaster = new THREE.Raycaster();
    function worldOf(id) { return lattice.pos[id].clone().applyMatrix4(root.matrixWorld); }
    function pickAt(clientX, clientY) {
      if (!lattice) return null;
      const r = canvas.getBoundingClientRect();
      if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) return null;
      const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      const ray = raycaster.ray;
      let best = null, bestT = Infinity;
      for (const id in lattice.pos) {
        const c = worldOf(id);
        const oc = c.sub(ray.origin);
        const t = oc.dot(ray.direction);
        const d2 = oc.lengthSq() - t * t;
        if (d2 > 0.55 * 0.55) continue;
        const hit = t - Math.sqrt(0.55 * 0.55 - d2);
        if (hit > 0 && hit < bestT) { bestT = hit; best = id; }
      }
      return best;
    }
    function project(id) {
      if (!lattice || !lattice.pos[id]) return null;
      root.updateMatrixWorld();
      const p = worldOf(id).project(camera);
      const r = canvas.getBoundingClientRect();
      const x = r.left + ((p.x + 1) / 2) * r.width, y = r.top + ((1 - p.y) / 2) * r.height;
      return { x, y, visible: pickAt(x, y) === id && x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight };
    }

    // ---- pointer, touch and wheel: turn, zoom, pan; a click without a drag picks
    const pointers = new Map();
    let gesture = null;
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("pointerdown", (e) => {
      canvas.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        const panning = e.button === 2 || e.button === 1 || e.shiftKey || e.ctrlKey;
        gesture = { mode: panning ? "pan" : "turn", x: e.clientX, y: e.clientY, moved: 0, button: e.button };
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        gesture = { mode: "pinch", dist: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, moved: 99 };
      }
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) {
        if (e.pointerType === "mouse") hooks.hover(pickAt(e.clientX, e.clientY));
        return;
      }
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!gesture) return;
      if (gesture.mode === "pinch" && pointers.size >= 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a.x - b.x, a.y - b.y), mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        if (dist > 0 && gesture.dist > 0) zoom(gesture.dist / dist);
        pan(mid.x - gesture.mid.x, mid.y - gesture.mid.y);
        gesture.dist = dist;
        gesture.mid = mid;
        return;
      }
      const dx = e.clientX - gesture.x, dy = e.clientY - gesture.y;
      gesture.moved += Math.abs(dx) + Math.abs(dy);
      gesture.x = e.clientX;
      gesture.y = e.clientY;
      if (gesture.moved < 5) return;
      if (gesture.mode === "pan") pan(dx, dy);
      else { cam.azimuth -= dx * 0.008; cam.elevation += dy * 0.008; updateCamera(); }
    });
    const release = (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (gesture && gesture.mode !== "pinch" && gesture.moved < 5 && gesture.button === 0 && e.type === "pointerup") {
        const id = pickAt(e.clientX, e.clientY);
        if (id) hooks.pick(id);
      }
      if (pointers.size === 0) gesture = null;
      else if (gesture && gesture.mode === "pinch") gesture = { mode: "turn", moved: 99, x: 0, y: 0, button: -1, ...[...pointers.values()][0] };
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") hooks.hover(null); });
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)))));
    }, { passive: false });

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
        if (spin) { cam.azimuth += 0.015; updateCamera(); }
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
      update, project, pickAt, measure, resetCamera, zoom, resize,
      turn(da, de) { cam.azimuth += da; cam.elevation += de; updateCamera(); },
      pan,
      animating: () => !!anim,
      camera: () => ({ azimuth: cam.azimuth, elevation: cam.elevation, distance: cam.distance, target: cam.target.toArray() }),
      frameTimes: () => ({ intervals: intervals.slice(), render: renderMs.slice() }),
      canvas,
      redraw: invalidate,
    };
  }

  // A touch screen (no hover, a coarse pointer) has no keys to press: its texts name none (quadrille.css hides
  // the pages' .key-hint there too).
  const touchScreen = () => !!window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;

  // ---------------------------------------------------------------- the renderer
  Quadrille.register("lattice", {
    flips: true,
    captured: (state) => !!(state.view.last && state.view.last.captures && state.view.last.captures.length),
    seatLabel: (seat, state) => sideLabel(seat, state && state.view),
    reasonText(reason, outcome, names) {
      if (reason === "stuck") return "Neither side can move: the side with more pieces on the far level wins.";
      if (reason === "eliminated") {
        const loser = outcome.winners.length ? 3 - outcome.winners[0] : null;
        return loser ? `${names[loser - 1]} has no pieces left on the lattice.` : "Both sides ran out of pieces.";
      }
      return undefined;
    },
    scoreText: (outcome, names, state) => {
      const score = outcome.scores && outcome.scores.length ? outcome.scores : state && state.view.score;
      return score ? `Pieces on the far level: ${names[0]} ${score[0]} · ${names[1]} ${score[1]}` : "";
    },

    mount(area, ctx) {
      const $ = (sel) => area.querySelector(sel);
      const root = $(".lattice");
      const stage = $("#lattice-stage");
      // the vendored three.js, by its content-hashed URL (the server's static_url, in board.html)
      const THREE_URL = root.dataset.three;
      let view = null, live = true, drawnMoves = -1, drawnMatchVersion = -1;
      const ui = { selected: null, hover: null, armed: null, chain: {}, focusMove: null, cursor: null };
      let scene3d = null;
      const api = (window.latticeView = {
        ready: false, webgl: null, error: "",
        project: (id) => (scene3d ? scene3d.project(id) : null),
        pickAt: (x, y) => (scene3d ? scene3d.pickAt(x, y) : null),
        frameTimes: () => (scene3d ? scene3d.frameTimes() : { intervals: [], render: [] }),
        measure: (n, options) => (scene3d ? scene3d.measure(n, options) : Promise.resolve(null)),
        idle: () => !scene3d || !scene3d.animating(),
        camera: () => (scene3d ? scene3d.camera() : null),
        selected: () => ui.selected,
        marks: () => lastMarks,
      });

      // -- the flat view ---------------------------------------------------------------------------
      const levelsBox = () => $("#lattice-levels");
      function buildFlat(v) {
        // the same structure as templates/games/lattice/board.html, for a lattice of another size
        const [W, H, L] = v.grid;
        const box = levelsBox();
        box.innerHTML = "";
        box.dataset.grid = `${W},${H},${L}`;
        for (const lv of v.levels) {
          const l = lv.level;
          const level = document.createElement("div");
          level.className = "lattice-level";
          level.dataset.level = l;
          const title = document.createElement("h3");
          title.className = "lattice-level-title";
          title.id = `lattice-level-${l}`;
          level.appendChild(title);
          const grid = document.createElement("div");
          grid.className = "lattice-grid";
          grid.setAttribute("role", "grid");
          grid.setAttribute("aria-labelledby", title.id);
          grid.style.setProperty("--w", W);
          for (let i = H - 1; i >= 0; i--) {
            const row = document.createElement("div");
            row.className = "lattice-row";
            row.setAttribute("role", "row");
            row.innerHTML = `<span class="lattice-axis" aria-hidden="true">${v.axes.y[i]}</span>`;
            for (let j = 0; j < W; j++) {
              const cell = document.createElement("span");
              cell.setAttribute("role", "gridcell");
              cell.tabIndex = -1;
              Object.assign(cell.dataset, { x: j, y: i, level: l });
              if ((i + j + l - 1) % 2) { cell.className = "cell hole"; cell.setAttribute("aria-label", "no node"); }
              else { cell.className = "cell node"; cell.dataset.node = v.axes.x[j] + v.axes.y[i] + l; cell.innerHTML = '<span class="piece"></span>'; }
              row.appendChild(cell);
            }
            grid.appendChild(row);
          }
          const axis = document.createElement("div");
          axis.className = "lattice-row lattice-axis-row";
          axis.setAttribute("aria-hidden", "true");
          axis.innerHTML = '<span class="lattice-axis"></span>' + v.axes.x.map((x) => `<span class="lattice-axis">${x}</span>`).join("");
          grid.appendChild(axis);
          level.appendChild(grid);
          box.appendChild(level);
        }
        ui.cursor = null;
      }
      const cellOf = (id) => levelsBox().querySelector(`.cell[data-node="${id}"]`);

      // -- what to show: targets, preview, selection ------------------------------------------------
      function movesByTarget() {
        // final node -> the moves (chains) of the selected piece that end there; returns when one is due
        const map = new Map();
        if (!view || !live || view.over) return map;
        if (view.pending === "return") {
          for (const id of view.returns) map.set(id, [{ move: "+" + id, path: [id], captures: [], promotes: false }]);
          return map;
        }
        for (const e of (ui.selected && view.legal[ui.selected]) || []) {
          const end = lastOf(e.path);
          if (!map.has(end)) map.set(end, []);
          map.get(end).push(e);
        }
        return map;
      }
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
        if (!view || !live || view.over || view.pending !== "move" || ui.selected) return [];
        if (!ctx.canPlay()) return [];
        return Object.keys(view.legal);
      }

      // -- input -----------------------------------------------------------------------------------
      function say(text) { const p = $("#lattice-info"); if (p.textContent !== text) p.textContent = text; }

      function activate(id) {
        if (!view || !live) return;
        if (view.over) return say("The game is over.");
        const targets = movesByTarget();
        if (view.pending === "return") {
          if (targets.has(id)) return play("+" + id);
          return say(`${sideLabel(view.turn, view)} promoted: bring a captured ball back to a green node of level ${view.sides[view.turn].first_level}.`);
        }
        if (ui.selected && targets.has(id)) {
          const list = targets.get(id);
          if (list.length === 1) return play(list[0].move);
          // several capture chains end on this node: each click shows the next, the list plays one
          if (ui.armed === id) ui.chain[id] = ((ui.chain[id] || 0) + 1) % list.length;
          else { ui.armed = id; ui.chain[id] = ui.chain[id] || 0; }
          ui.focusMove = null;
          render();
          const shown = list[ui.chain[id]];
          const keys = touchScreen() ? "" : ` (keys 1–${Math.min(9, list.length)})`; // no keys to press on a touch screen
          return say(`${list.length} capture chains end on ${id}; showing ${ui.chain[id] + 1}: ${shown.move}. Click ${id} again for the next, or play one from the list${keys}.`);
        }
        if (view.legal[id]) {
          ui.selected = ui.selected === id ? null : id;
          ui.armed = null; ui.chain = {}; ui.focusMove = null;
          render();
          return;
        }
        const hadSelection = !!ui.selected;
        ui.selected = null; ui.armed = null; ui.focusMove = null;
        render();
        const node = view.nodes.find((n) => n.id === id);
        if (!hadSelection && node && node.seat === view.turn) {
          say(view.must_capture ? `${id} cannot capture, and a capture is mandatory: pick one of ${Object.keys(view.legal).join(", ")}.`
            : `${id} has no move now.`);
        }
      }
      function play(move) {
        ui.selected = null; ui.armed = null; ui.chain = {}; ui.focusMove = null; ui.hover = null;
        render();
        ctx.play(move);
      }
      function hover(id) {
        if (ui.hover === id) return;
        ui.hover = id;
        const hud = $("#lattice-hud");
        if (hud) {
          const n = id && view && view.nodes.find((x) => x.id === id);
          hud.textContent = n ? `${id} · level ${n.level}${n.seat ? " · " + pieceName(n, view) : ""}` : "";
        }
        render(true);
      }

      levelsBox().addEventListener("click", (e) => {
        const cell = e.target.closest(".lattice-levels .cell[data-node]");
        if (!cell) return;
        setCursor(cell, false);
        activate(cell.dataset.node);
      });
      levelsBox().addEventListener("mouseover", (e) => {
        const cell = e.target.closest(".lattice-levels .cell[data-node]");
        hover(cell ? cell.dataset.node : null);
      });
      levelsBox().addEventListener("mouseleave", () => hover(null));
      levelsBox().addEventListener("focusin", (e) => {
        const cell = e.target.closest(".cell");
        if (cell) { ui.cursor = cell; hover(cell.dataset.node || null); }
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

      // keyboard cursor on the flat view (roving tabindex): the levels side by side form one wide grid
      function setCursor(cell, focus) {
        for (const c of levelsBox().querySelectorAll('.cell[tabindex="0"]')) if (c !== cell) c.tabIndex = -1;
        cell.tabIndex = 0;
        ui.cursor = cell;
        if (focus) cell.focus();
      }
      function cursorCell() {
        if (ui.cursor && ui.cursor.isConnected) return ui.cursor;
        return levelsBox().querySelector('.cell[tabindex="0"]') || levelsBox().querySelector(".cell.node");
      }
      function moveCursor(key) {
        const [W, H, L] = view.grid;
        const cell = cursorCell();
        // in screen terms: a flipped board runs x and y the other way within each level
        const turn = flippedView();
        const sx = (x) => (turn ? W - 1 - x : x), sy = (y) => (turn ? H - 1 - y : y);
        let col = (Number(cell.dataset.level) - 1) * W + sx(Number(cell.dataset.x)), y = sy(Number(cell.dataset.y));
        if (key === "ArrowLeft") col = Math.max(0, col - 1);
        else if (key === "ArrowRight") col = Math.min(W * L - 1, col + 1);
        else if (key === "ArrowUp") y = Math.min(H - 1, y + 1);
        else if (key === "ArrowDown") y = Math.max(0, y - 1);
        else if (key === "Home") col = Math.floor(col / W) * W;
        else if (key === "End") col = Math.floor(col / W) * W + W - 1;
        else if (key === "PageUp") col = Math.min(W * L - 1, col + W);
        else if (key === "PageDown") col = Math.max(0, col - W);
        const next = levelsBox().querySelector(`.cell[data-level="${Math.floor(col / W) + 1}"][data-x="${sx(col % W)}"][data-y="${sy(y)}"]`);
        if (next) setCursor(next, true);
      }
      const CURSOR_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);

      // -- the 3D view -------------------------------------------------------------------------------
      const toggle = $("#lattice-3d-toggle");
      function want3d() { try { return localStorage.getItem(STORE_3D) !== "off"; } catch (e) { return true; } }
      // A small frame (a phone-sized embed) plays on the flat view alone, its nodes big enough to tap: lattice.css
      // hides the stage there, and the 3D view is not loaded (nor the player's preference changed).
      const smallFrame = () => document.body.classList.contains("embed") && window.matchMedia("(max-width: 480px)").matches;
      function show3d(on, remember = true) {
        stage.hidden = !on;
        toggle.setAttribute("aria-pressed", String(on));
        toggle.textContent = on ? "Hide the 3D view" : "Show the 3D view";
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
        $("#lattice-note").textContent = `No 3D view here: ${reason} Play on the levels view below.`;
        toggle.hidden = true;
      }
      function probeWebgl() {
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
      }
      // three.js (750 KB, minified) is fetched only when the 3D view is first shown: a player who keeps it
      // hidden, or whose browser has no WebGL, never downloads it.
      let loading3d = null;
      function load3d() {
        $("#lattice-note").textContent = "Loading the 3D view…";
        loading3d = import(THREE_URL).then((THREE) => {
          try {
            scene3d = createScene(THREE, stage, { pick: activate, hover, software: probe.software });
          } catch (err) {
            return no3d("WebGL could not start (" + (err && err.message ? err.message : err) + ").");
          }
          api.webgl = true;
          $("#lattice-note").textContent = "";
          render();
          api.ready = true;
        }).catch((err) => no3d("three.js did not load (" + (err && err.message ? err.message : err) + ")."));
      }
      const probe = probeWebgl();
      if (!probe) {
        no3d("this browser has no WebGL.");
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
        renderFlat(targets, preview, mov);
        lastMarks = { targets: [...targets.keys()], preview: preview ? preview.move : null, selected: ui.selected, movable: mov, flipped: flippedView() };
        if (scene3d && !stage.hidden) {
          scene3d.update(view, { view, ...lastMarks, preview }, pendingAnimation);
          pendingAnimation = undefined;
        }
      }

      function renderFlat(targets, preview, mov) {
        const steps = new Map();
        if (preview) preview.path.forEach((id, k) => { if (k) steps.set(id, k); });
        const victims = new Set(preview ? preview.captures : []);
        const last = view.last && !preview ? view.last : null;
        const lastPath = new Set(last ? last.path : []), lastCaps = new Set(last ? last.captures : []);
        const hot = preview ? lastOf(preview.path) : null;
        const movableSet = new Set(mov);
        for (const n of view.nodes) {
          const cell = cellOf(n.id);
          if (!cell) continue;
          let cls = "cell node";
          if (n.seat) cls += ` s${n.seat}${n.star ? " star" : ""}`;
          if (targets.has(n.id)) cls += " target";
          if (n.id === hot) cls += " hot";
          if (steps.has(n.id) && n.id !== hot) cls += " path";
          if (victims.has(n.id)) cls += " victim";
          if (n.id === ui.selected) cls += " selected";
          if (movableSet.has(n.id)) cls += " movable";
          if (lastPath.has(n.id)) cls += " last";
          if (last && n.id === last.path[0]) cls += " last-from";
          if (last && n.id === lastOf(last.path)) cls += " last-to";
          if (lastCaps.has(n.id)) cls += " last-capture";
          if (cell.className !== cls) cell.className = cls;
          const step = steps.has(n.id) && preview.path.length > 2 ? String(steps.get(n.id)) : "";
          if ((cell.dataset.step || "") !== step) { if (step) cell.dataset.step = step; else delete cell.dataset.step; }
          let text = `${n.id}, level ${n.level}, ${n.seat ? pieceName(n, view) : "empty"}`;
          if (n.id === ui.selected) text += ", selected";
          if (movableSet.has(n.id)) text += ", can move";
          if (targets.has(n.id)) {
            const list = targets.get(n.id);
            if (view.pending === "return") text += ", return a ball here";
            else if (list.length > 1) text += `, target of ${list.length} capture chains`;
            else text += list[0].captures.length ? `, target: captures ${list[0].captures.join(", ")}` : ", target";
            if (list.some((e) => e.promotes)) text += ", promotes";
          }
          if (victims.has(n.id)) text += ", captured by this move";
          if (cell.getAttribute("aria-label") !== text) cell.setAttribute("aria-label", text);
        }
        root.classList.toggle("replaying", !live);
        root.classList.toggle("flipped", flippedView());
      }

      function renderChoices(targets) {
        choices.innerHTML = "";
        const list = [];
        if (view.pending === "return" && live) list.push(...[...targets.values()].map((l) => l[0]));
        else if (ui.selected) for (const l of targets.values()) list.push(...l);
        choices.hidden = !list.length;
        if (!list.length) return;
        const title = document.createElement("span");
        title.className = "muted";
        title.textContent = view.pending === "return" ? "Return a ball to:" : `Moves of ${ui.selected}:`;
        choices.appendChild(title);
        const armed = ui.armed && targets.has(ui.armed) ? targets.get(ui.armed) : null;
        list.forEach((e) => {
          const b = document.createElement("button");
          b.type = "button";
          b.dataset.move = e.move;
          const n = armed ? armed.indexOf(e) : -1;
          b.className = "lattice-choice" + (n >= 0 ? " armed" : "");
          b.textContent = (n >= 0 && n < 9 ? `${n + 1}. ` : "") + e.move + (e.captures.length ? ` (×${e.captures.length})` : "") + (e.promotes ? " ★" : "");
          b.setAttribute("aria-label", (e.move.startsWith("+") ? `return a ball to ${e.move.slice(1)}` : `play ${e.move}`)
            + (e.captures.length ? `, captures ${e.captures.join(", ")}` : "") + (e.promotes ? ", promotes" : ""));
          choices.appendChild(b);
        });
      }

      function renderInfo(targets) {
        const colorVars = { "--c1": rgbCss(view.colors["1"].rgb), "--c2": rgbCss(view.colors["2"].rgb),
          "--on1": light(view.colors["1"].rgb) ? "#222" : "#fff", "--on2": light(view.colors["2"].rgb) ? "#222" : "#fff" };
        for (const [k, v] of Object.entries(colorVars)) root.style.setProperty(k, v);
        for (const b of area.querySelectorAll("[data-score]")) b.textContent = view.score[Number(b.dataset.score) - 1];
        const more = $("#lattice-score .muted");
        if (more) more.textContent = `· on the lattice ${view.on_board[0]} · ${view.on_board[1]} · captured ${view.bench[0]} · ${view.bench[1]}`;
        for (const lv of view.levels) {
          const t = $(`#lattice-level-${lv.level}`);
          const first = [1, 2].find((seat) => lv.level === view.sides[seat].first_level);
          const tag = first ? ` · ${sideLabel(first, view)}'s first` : "";
          if (t) t.textContent = `Level ${lv.level}${tag}`;
        }
        let text;
        if (!live) text = "An earlier position (step to the end to play).";
        else if (view.over) text = "Game over.";
        else {
          const who = sideLabel(view.turn, view);
          const passed = view.passed.length ? `${view.passed.map((s) => sideLabel(s, view)).join(", ")} had no move and passed. ` : "";
          if (view.pending === "return") text = `${passed}${who} promoted: click a green node of level ${view.sides[view.turn].first_level} to bring a captured ball back.`;
          else if (ui.selected) {
            const ends = [...targets.keys()];
            text = `${ui.selected} selected: ${ends.length} target${ends.length === 1 ? "" : "s"} (${ends.join(", ")}). Click a green node to play, the piece again to drop it.`;
          } else {
            text = `${passed}${who} to move${view.extra_turn ? " again (extra turn)" : ""}${view.must_capture ? ": a capture is mandatory" : ""}. `
              + (ctx.canPlay() ? "Pick a piece; its targets turn green." : "");
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
        if (!prev || prev.size !== nextView.size) buildFlat(nextView);
        view = nextView;
        live = isLive;
        const changed = !prev || prev.move_count !== view.move_count || state.version !== drawnMatchVersion || prev.pos !== view.pos;
        if (changed) { ui.selected = null; ui.armed = null; ui.chain = {}; ui.focusMove = null; }
        if (ui.selected && !(view.legal[ui.selected])) ui.selected = null;
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
        const cursor = cursorCell();
        if (cursor && cursor.tabIndex !== 0) setCursor(cursor, false);
      }

      function key(event) {
        if (event.target.closest && event.target.closest("button, a, summary, dialog")) return false;
        const k = event.key;
        const inFlat = levelsBox().contains(document.activeElement);
        const has3d = scene3d && !stage.hidden;
        if (inFlat || (!has3d && CURSOR_KEYS.has(k))) {
          if (CURSOR_KEYS.has(k)) { if (view) moveCursor(k); return true; }
          if (inFlat && (k === "Enter" || k === " ")) {
            const cell = cursorCell();
            if (cell.dataset.node) activate(cell.dataset.node);
            return true;
          }
        }
        if (k === "Escape" && (ui.selected || ui.armed)) {
          ui.selected = null; ui.armed = null; ui.focusMove = null; render();
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
