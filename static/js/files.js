// Importing a saved match: a Quadrille record (.json) or a game's own save file (.ltc, .twr, ...).
// The server reads and checks the file; this only sends it and keeps the new match's seat token.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  async function importFile(file) {
    const extension = (file.name.split(".").pop() || "json").toLowerCase();
    const text = await file.text();
    const query = extension === "json" ? "" : `?format=${encodeURIComponent(extension)}`;
    const response = await fetch(`/api/matches/import${query}`, {
      method: "POST",
      headers: { "Content-Type": extension === "json" ? "application/json" : "text/plain" },
      body: text,
    });
    const answer = await response.json().catch(() => ({ reason: I18n.t("The server answered oddly.") }));
    if (!response.ok) throw answer;
    window.QuadrilleTokens.remember(answer);
    return answer;
  }
  window.QuadrilleFiles = { importFile };
})();
