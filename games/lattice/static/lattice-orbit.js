// Lattice Checkers' 3D camera (static/lattice-scene.js uses it): an orbit around a target point that the mouse,
// touch, the wheel and the keys turn, zoom and pan, and picking: which node the pointer is over, and where a node
// stands on the screen (window.latticeView.project, for the tests). A click without a drag picks (hooks.pick).
(function () {
  "use strict";
  const Lattice = (window.QuadrilleLattice = window.QuadrilleLattice || {});

  // camera, canvas and root: the scene's; lattice(): its positions and size (null before the first build);
  // invalidate(): ask for a frame; hooks: {pick(id), hover(id or null)}.
  Lattice.orbit = function orbit(THREE, { camera, canvas, root, lattice, invalidate, hooks }) {
    // ---- camera: an orbit around a target point
    const cam = { azimuth: 0, elevation: 0, distance: 10, target: new THREE.Vector3() };
    function resetCamera() {
      cam.azimuth = -0.55;
      cam.elevation = 0.42;
      cam.target.set(0, 0, 0);
      // the whole lattice in view: its bounding sphere fits the narrower of the two fields of view
      const half = THREE.MathUtils.degToRad(camera.fov / 2);
      const narrow = Math.min(half, Math.atan(Math.tan(half) * (camera.aspect || 1)));
      cam.distance = lattice() ? lattice().radius / Math.sin(narrow) : 20;
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

    // ---- picking: the nearest node whose (generous) sphere the ray through the pointer meets
    const raycaster = new THREE.Raycaster();
    function worldOf(id) { return lattice().pos[id].clone().applyMatrix4(root.matrixWorld); }
    function pickAt(clientX, clientY) {
      if (!lattice()) return null;
      const r = canvas.getBoundingClientRect();
      if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) return null;
      const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      const ray = raycaster.ray;
      let best = null, bestT = Infinity;
      for (const id in lattice().pos) {
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
      if (!lattice() || !lattice().pos[id]) return null;
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

    return {
      resetCamera, pan, zoom, pickAt, project,
      turn(da, de) { cam.azimuth += da; cam.elevation += de; updateCamera(); },
      state: () => ({ azimuth: cam.azimuth, elevation: cam.elevation, distance: cam.distance, target: cam.target.toArray() }),
    };
  };
})();
