// The one way the pages call the server's JSON API: QuadrilleApi(path, body, method).
// GET without a body, POST with one (or the method given); the session's CSRF token (QuadrilleApi.csrf: first the
// players' pages' <meta name="csrf-token">, then what a log-in answers) goes with every call that changes something. An answer that is not ok is thrown as
// an Error whose message is the server's reason, carrying the answer's own fields too (error.reason, error.error)
// and the whole answer (error.answer), so a page may say why in the server's words.
(function () {
  "use strict";

  async function api(path, body, method) {
    const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (api.csrf && options.method !== "GET") options.headers["X-CSRFToken"] = api.csrf;
    // the answer's words (a lesson's hint, an error's reason) in the page's language, which may have come from
    // the address (?lang=) rather than from the browser's own Accept-Language
    if (document.documentElement.lang) options.headers["Accept-Language"] = document.documentElement.lang;
    const response = await fetch(path, options);
    const I18n = window.QuadrilleI18n; // read here: this script may run before the page's words are loaded
    const odd = { error: "bad-answer", reason: I18n.t("The server did not answer in JSON.") };
    const answer = await response.json().catch(() => odd);
    if (!response.ok) throw Object.assign(new Error(answer.reason || I18n.t("Something went wrong.")), answer, { answer });
    return answer;
  }

  // Read when first asked for, not at load: this script is loaded in <head>, before the page's own meta tag.
  let token;
  Object.defineProperty(api, "csrf", {
    get() {
      if (token === undefined) {
        const meta = document.querySelector('meta[name="csrf-token"]');
        if (meta) token = meta.content; else return null;
      }
      return token;
    },
    set(value) { token = value; },
  });
  window.QuadrilleApi = api;
})();
