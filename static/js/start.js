// Loaded last on a match page, after the game's renderer has registered: no inline script (see the CSP).
window.Quadrille.start();
