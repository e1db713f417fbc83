#!/usr/bin/env node
// A Quadrille bot in JavaScript (Node 20): it accepts the challenges made to its account and plays random legal
// moves to the end, over Socket.IO with its API token in the handshake (docs/api.md, "Bots").
//
//   cd examples && npm ci                       # socket.io-client, the version the site itself serves
//   QUADRILLE_BOT_TOKEN=qbt_... node bot.js --server https://quadrille.example
//   node bot.js --server https://quadrille.example --token-file ~/.config/mybot.token
//
// The token comes from QUADRILLE_BOT_TOKEN or a file (its first line), never from the command line, which every
// user of the machine sees in `ps`. With `auth: {token}` the socket acts as the bot's account: `inbox` hears its
// challenges, and `watch` and `move` need no token field (the handshake's stands for the account's seats).
//
// The reconnect rule: after a reconnection, forget which versions were answered and send `watch` again for
// every game (and `inbox` again): the server holds the truth and answers with the newest STATE.
"use strict";

const fs = require("fs");
const { io } = require("socket.io-client");

function options(argv) {
  const found = { server: "http://127.0.0.1:5000", games: 0, tokenFile: null };
  for (let i = 0; i < argv.length; i++) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === "--server") { found.server = value; i++; }
    else if (name === "--games") { found.games = Number(value); i++; }
    else if (name === "--token-file") { found.tokenFile = value; i++; }
    else if (name === "--token" || name.startsWith("--token=")) {
      fail("--token is not accepted: a command line is visible to every user of the machine (ps); " +
           "set QUADRILLE_BOT_TOKEN or give --token-file");
    } else fail(`unknown argument ${name}`);
  }
  return found;
}

function fail(message) {
  console.error(`bot.js: ${message}`);
  process.exit(2);
}

function theToken(tokenFile) {
  if (tokenFile) {
    let text;
    try { text = fs.readFileSync(tokenFile, "utf8"); } catch (error) { fail(`cannot read the token file: ${error.message}`); }
    const token = text.split("\n")[0].trim();
    if (!token) fail(`the token file ${tokenFile} is empty`);
    return token;
  }
  const token = (process.env.QUADRILLE_BOT_TOKEN || "").trim();
  if (!token) fail("no API token: set QUADRILLE_BOT_TOKEN or give --token-file (a file holding the token)");
  return token;
}

class Bot {
  constructor(server, token, games) {
    this.server = server.replace(/\/$/, "");
    this.token = token;
    this.games = games;
    this.finished = new Set();
    this.playing = new Map(); // match id -> {seats, answered: the version we last moved at}
    this.name = null;
    this.socket = io(this.server, { auth: { token }, transports: ["websocket"] });
    this.socket.on("connect", () => this.connected());
    this.socket.on("connect_error", (error) => {
      // A refused handshake says why: {"error": "bad-token", "reason"} in error.data.
      console.error(`cannot connect: ${error.data ? error.data.reason : error.message}`);
      if (error.data && error.data.error === "bad-token") process.exit(1);
    });
    this.socket.on("challenge", (challenge) => this.heardChallenge(challenge));
    this.socket.on("state", (state) => this.heardState(state));
  }

  async call(method, path, body) {
    const answer = await fetch(this.server + path, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${json.error}: ${json.reason}`);
    return json;
  }

  async connected() {
    // The reconnect rule: every game is watched again, and nothing answered before counts.
    const inbox = await this.socket.emitWithAck("inbox", {});
    if (!inbox.ok) fail(`inbox: ${inbox.error}: ${inbox.reason}`);
    this.name = inbox.account.name;
    console.log(`connected as ${this.name}`);
    const { games } = await this.call("GET", "/api/me/games");
    for (const game of games) if (!game.finished) await this.watch(game.match);
    for (const match of this.playing.keys()) await this.watch(match);
    const { incoming } = await this.call("GET", "/api/challenges");
    for (const challenge of incoming) await this.heardChallenge(challenge);
  }

  async heardChallenge(challenge) {
    if (challenge.status === "accepted" && challenge.match) return this.watch(challenge.match);
    const mine = challenge.to.find((to) => to.name === this.name);
    if (challenge.status !== "pending" || !mine || mine.status !== "pending") return;
    try {
      await this.call("POST", `/api/challenges/${challenge.challenge}/accept`);
      console.log(`accepted ${challenge.from}'s challenge to ${challenge.title}`);
    } catch (error) {
      console.log(`could not accept: ${error.message}`);
    }
  }

  async watch(match) {
    if (this.finished.has(match)) return;
    const answer = await this.socket.emitWithAck("watch", { match });
    if (!answer.ok) return console.log(`watch ${match}: ${answer.error}: ${answer.reason}`);
    if (!answer.you.seats.length) return;
    if (!this.playing.has(match)) console.log(`playing match ${match} as seat(s) ${JSON.stringify(answer.you.seats)}`);
    this.playing.set(match, { seats: answer.you.seats, answered: null });
    this.heardState(answer.state);
  }

  heardState(state) {
    const game = this.playing.get(state.match);
    if (!game) return;
    if (state.outcome) return this.over(state);
    if (!game.seats.includes(state.turn) || !state.legal.length || game.answered === state.version) return;
    game.answered = state.version; // one move per version: a later STATE (or a refusal) moves us on
    const move = state.legal[Math.floor(Math.random() * state.legal.length)];
    this.socket.emitWithAck("move", { match: state.match, move, version: state.version }).then((answer) => {
      if (!answer.ok) console.log(`refused: ${answer.error}: ${answer.reason}`);
    });
  }

  over(state) {
    if (this.finished.has(state.match)) return;
    this.finished.add(state.match);
    this.playing.delete(state.match);
    console.log(`match ${state.match} over: winners ${JSON.stringify(state.outcome.winners)} (${state.outcome.reason})`);
    if (this.games && this.finished.size >= this.games) {
      this.socket.disconnect();
      process.exit(0);
    }
  }
}

const found = options(process.argv.slice(2));
new Bot(found.server, theToken(found.tokenFile), found.games);
