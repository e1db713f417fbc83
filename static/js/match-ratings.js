// Ratings where they matter (a rated match only): each player's rating beside their name while the game is
// played (the STATE's `seat_ratings`, with a "?" while provisional, as on profiles), and on the result screen
// what the game did to each rating (its `ratings`: before and after): "1500 → 1512 (+12)". The server says
// which matches are rated and what their ratings are; this only writes them.
(function () {
  "use strict";
  const I18n = window.QuadrilleI18n;
  const number = (n) => new Intl.NumberFormat(I18n.locale, { useGrouping: false }).format(n); // ratings: no grouping
  const Ratings = {
    // "1512", or "1512?" for a provisional rating.
    text(rating, provisional) {
      return `${number(rating)}${provisional ? "?" : ""}`;
    },
    // "+12", "-12", "±0".
    change(before, after) {
      const d = after - before;
      return d > 0 ? `+${number(d)}` : d < 0 ? `-${number(-d)}` : "±0";
    },
    // The rating beside a seat's name (an element), or null when the match is not rated.
    beside(state, seat) {
      const r = state.seat_ratings && state.seat_ratings[String(seat)];
      if (!r) return null;
      const span = document.createElement("span");
      span.className = "seat-rating";
      span.title = r.provisional ? I18n.t("Rating, provisional: too few rated games yet to be sure") : I18n.t("Rating");
      const shown = document.createElement("span"); // "(1500?)" on the screen, "rating 1500, provisional" said
      shown.setAttribute("aria-hidden", "true");
      shown.textContent = `(${Ratings.text(r.rating, r.provisional)})`;
      const spoken = document.createElement("span");
      spoken.className = "sr-only";
      spoken.textContent = r.provisional ? I18n.t("rating {rating}, provisional", { rating: number(r.rating) })
        : I18n.t("rating {rating}", { rating: number(r.rating) });
      span.append(shown, spoken);
      return span;
    },
    // The result screen's lines, the viewer's own rating first: ["Your rating: 1500 → 1512? (+12)",
    // "Red: 1500 → 1488? (-12)"]; none when the game changed no rating.
    resultLines(state, page) {
      const ratings = state.ratings || {};
      const mine = page.role() === "player" ? page.mySeats() : [];
      const seats = Object.keys(ratings).map(Number)
        .sort((a, b) => (mine.includes(b) - mine.includes(a)) || a - b);
      return seats.map((seat) => {
        const r = ratings[String(seat)];
        const who = mine.includes(seat) ? I18n.t("Your rating") : page.label(seat);
        return `${who}: ${number(r.before)} → ${Ratings.text(r.after, r.provisional)} (${Ratings.change(r.before, r.after)})`;
      });
    },
    // For the live region with the result: "Your rating is now 1662, provisional: +162." (a player's own).
    spoken(state, page) {
      const ratings = state.ratings || {};
      const seat = page.role() === "player" ? page.mySeats().find((s) => ratings[String(s)]) : undefined;
      if (seat === undefined) return "";
      const r = ratings[String(seat)];
      const params = { rating: number(r.after), change: Ratings.change(r.before, r.after) };
      return r.provisional ? I18n.t("Your rating is now {rating}, provisional: {change}.", params)
        : I18n.t("Your rating is now {rating}: {change}.", params);
    },
  };
  window.QuadrilleRatings = Ratings;
})();
