// The page's language for the JavaScript (docs/translating.md). Loaded first on every page (templates/base.html);
// a non-English page then loads its language's catalog, static/i18n/<lang>.js, built from
// quadrille/translations/<lang>/LC_MESSAGES/js.po, which calls QuadrilleI18n.load(...). English needs none: the
// code holds the English.
//
//   I18n.t("Your move")                                     a sentence
//   I18n.t("{name} resigned", { name })                     with values: {name} placeholders
//   I18n.n("{count} mistake", "{count} mistakes", count)    plurals: the catalog's forms, chosen by the count
//   I18n.p("side", "Blue")                                  a word in a context (gettext's msgctxt): the same
//                                                           English, another translation (Russian «Синие»)
//   I18n.number(1234.5), I18n.date(new Date()), I18n.duration(125)
//
// Write the calls out as `I18n.t(` and `I18n.n(` with the English as a plain string: `pybabel extract`
// (babel.cfg) finds them by that name, and a string built at run time cannot be found or translated.
// Plurals: the build turns the catalog's Plural-Forms into a table from the browser's CLDR plural category
// (Intl.PluralRules) to the catalog's form, so no expression from a catalog is ever evaluated here.
(function () {
  "use strict";
  const root = document.documentElement;
  let catalog = { locale: "en", plural: { one: 0, other: 1 }, forms: 2, messages: {} };
  const cache = {};

  function locale() {
    return catalog.locale !== "en" ? catalog.locale : (root.lang || "en");
  }

  function cached(kind, options, make) {
    const key = kind + locale() + JSON.stringify(options || {});
    if (!(key in cache)) {
      try { cache[key] = make(locale(), options); } catch (e) { cache[key] = make("en", options); }
    }
    return cache[key];
  }

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
  }

  function t(msgid, params) {
    const found = catalog.messages[msgid];
    return fill(typeof found === "string" && found ? found : msgid, params);
  }

  // gettext's pgettext: the catalog keys a message with a context as "context\u0004msgid"
  function p(context, msgid, params) {
    const found = catalog.messages[context + "\u0004" + msgid];
    return fill(typeof found === "string" && found ? found : msgid, params);
  }

  function n(singular, plural, count, params) {
    const values = Object.assign({ count: number(count) }, params || {});
    const forms = catalog.messages[singular];
    if (Array.isArray(forms) && forms.length) {
      const category = cached("plural", null, (l) => new Intl.PluralRules(l)).select(count);
      const index = category in catalog.plural ? catalog.plural[category] : catalog.plural.other;
      const text = forms[index] || forms[forms.length - 1];
      if (text) return fill(text, values);
    }
    return fill(count === 1 ? singular : plural, values);
  }

  function number(x, options) {
    if (typeof x !== "number" || !isFinite(x)) return String(x);
    return cached("number", options, (l, o) => new Intl.NumberFormat(l, o)).format(x);
  }

  // A Date, or a time in seconds since 1970 (the server's times) or in milliseconds (Date.now()).
  function date(d, options) {
    const when = d instanceof Date ? d : new Date(typeof d === "number" && d < 1e11 ? d * 1000 : d);
    const o = options || { dateStyle: "medium", timeStyle: "short" };
    return cached("date", o, (l, opts) => new Intl.DateTimeFormat(l, opts)).format(when);
  }

  // Seconds as a person says a length of time: "1 h 5 min", "2 min 5 s", "45 s" (the two largest units).
  function duration(seconds) {
    let left = Math.max(0, Math.round(Number(seconds) || 0));
    const parts = [];
    for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]]) {
      const amount = Math.floor(left / size);
      left -= amount * size;
      if (amount || (unit === "second" && !parts.length)) parts.push([unit, amount]);
    }
    return parts.slice(0, 2).map(([unit, amount]) =>
      number(amount, { style: "unit", unit, unitDisplay: "short" })).join(" ");
  }

  function load(data) {
    if (data && typeof data === "object" && data.messages) catalog = data;
  }

  // The header's language menu (templates/language_menu.html): a choice is sent at once, without its button.
  function enhanceMenus() {
    document.querySelectorAll("form[data-language-menu]").forEach((form) => {
      const select = form.querySelector("select");
      const button = form.querySelector("button");
      if (!select || form.dataset.enhanced) return;
      form.dataset.enhanced = "1";
      if (button) button.hidden = true;
      select.addEventListener("change", () => form.submit());
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", enhanceMenus);
  else enhanceMenus();

  window.QuadrilleI18n = window.I18n = {
    t, n, p, number, date, duration, load,
    get locale() { return locale(); },
  };
})();
