"""Every setting of the server, with its default and why. `create_app(config)` overrides any of them.

Budgets are written in the `limits` notation ("100 per 20 seconds"). Per-address budgets are generous,
because many real players share one address behind a NAT (the events of `bench/load.py`'s 400 clients at
200 matches fit in one address's budget, though since each of its tables reconnects for every game, their
connections would not: it plays each table from an address of its own); the per-socket budgets are the
tight ones (lichess: about 100 messages per 20 s for a player).
"""
from __future__ import annotations

DEFAULTS = {
    "DATABASE": "quadrille.db",
    "ASYNC_MODE": "threading",
    # The address players reach the site by: invite links and other external links are built from it, never
    # from a request's Host header (which a client chooses). app.py sets it from --public-url, or from the
    # address it listens on.
    "PUBLIC_URL": "http://127.0.0.1:5000",
    # Proxies in front of the server whose X-Forwarded-For/-Proto to trust (0: none; 1 behind one nginx).
    "PROXY_HOPS": 0,
    # With PROXY_HOPS: the addresses (or networks, "10.1.0.0/16") those headers are believed from, a list or
    # text separated by commas. A request from any other address reached the process directly, and is counted
    # as that address whatever it claims to forward. Loopback by default: a proxy on the same machine. The peer
    # of app.py's --unix-socket is always believed (only who may open the socket file reaches it); with the
    # proxy on the same machine, prefer that socket and [] here: 127.0.0.1 is every local user's address.
    "TRUSTED_PROXIES": ["127.0.0.1", "::1"],

    # -- several processes (docs/architecture.md, "Past one process") --------------------------------------
    # A Redis URL (redis://host:6379/0): broadcasts travel between processes through it (Flask-SocketIO's
    # message_queue), and presence, leases, timers, the computer's quota and the budgets are shared in it.
    # None: one process, everything in memory. app.py sets it from --message-queue.
    "MESSAGE_QUEUE": None,
    # Redis keys start with this, so that several sites may share one Redis.
    "CLUSTER_PREFIX": "quadrille:",
    # Connections one process opens to Redis at most (presence, leases, timers, budgets share them; a request
    # that finds all busy waits for one). Without a bound, a burst of connecting clients under gevent opened
    # one per client until redis-py's own cap refused them.
    "REDIS_CONNECTIONS": 256,
    # A process refreshes its presence entries every PRESENCE_TTL/3 s: a dead process's sockets vanish within it.
    "PRESENCE_TTL": 10.0,
    # A process that found no other process's socket in a match trusts that for AUDIENCE_TTL s before asking
    # Redis again (infra/message_queue.py): a broadcast to a watcher who joins another process at the instant
    # of a move may be this late, never lost.
    "AUDIENCE_TTL": 10.0,
    # A dead process's computer seats are taken over within LEASE_TTL plus TAKEOVER_INTERVAL seconds.
    "LEASE_TTL": 6.0,
    "TAKEOVER_INTERVAL": 2.0,

    "MAX_CONTENT_LENGTH": 1 << 20,        # HTTP bodies: 1 MiB is plenty for a record
    "SOCKET_MAX_BYTES": 16 << 10,         # Socket.IO messages: moves are tiny
    "COMPUTER_WORKERS": None,             # worker processes for computer players (default: cores - 1, at least 1)
    "DEMO_DELAY": 0.6,                    # seconds between moves when only computers play
    "COMPUTER_MATCHES_PER_ADDRESS": 8,    # matches against the computer one client address may have going
    # -- analysis (quadrille/analysis/): on the same worker processes, behind every person's move ------------
    "ANALYSIS_QUEUE_PER_ADDRESS": 3,      # analyses of matches one address may have queued or running at once
    "ANALYSIS_NODES": 6000,               # a match analysis's node budget per position (docs/api.md, "Analysis")
    "ANALYSIS_NICE": 10,                  # analysis steps run this much nicer than people's searches (a thread)
    "ANALYSIS_POSITION_NODES": 10000,     # the analysis board's node budget for one position
    "ANALYSIS_POSITION_MOVES": 1000,      # the most moves a position sent to the analysis board may have
    "CACHE_MAX_EVENTS": 250_000,          # live matches kept in memory: their events plus moves, in total

    # -- connections (quadrille/web/listener.py, admission.py): the one process holds alone, without a proxy --
    # Seconds a client has to send a request's line and headers, from its first byte: a connection that stalls
    # or stops before its headers end is closed unanswered (never served as if it were complete).
    "HEADER_TIMEOUT": 10.0,
    # Seconds a connection may wait for the first byte of a request (after it opened, or between two requests
    # on a kept-alive connection) before it is closed, and up to a quarter more (the listener's waiting room
    # closes them in small batches every quarter of it, so a flood's do not all close in one instant).
    # WebSockets are exempt: Engine.IO's pings watch them.
    "IDLE_TIMEOUT": 5.0,
    # Seconds a request body (at most MAX_CONTENT_LENGTH) has to arrive whole, and an answer to be taken.
    "TRANSFER_TIMEOUT": 30.0,
    # Raw TCP connections one address (an IPv6 client: its /64) may hold open at once, counted at accept before
    # anything is read: room for CONNECTIONS_PER_ADDRESS Socket.IO sessions behind a NAT and their pages' HTTP
    # connections. Behind a proxy (PROXY_HOPS > 0) the proxy's own connections (TRUSTED_PROXIES, the Unix
    # socket) are not capped, as they carry all its clients; a client that goes around the proxy still is.
    "TCP_CONNECTIONS_PER_ADDRESS": 700,
    # File descriptors kept for everything but client connections (the database, Redis pools, computer workers,
    # logs): past the limit less this, a new connection is admitted only in place of the newest one of the
    # address that holds the most, so an address new to the server is always served.
    "DESCRIPTOR_RESERVE": 500,
    # Connections waiting for a request, all addresses together: new ones, and kept-alive ones after an answer,
    # until their next request has arrived whole (a WebSocket, or a request being served, never waits). A
    # flood's idle connections end all at once (its client lets go, or they reach IDLE_TIMEOUT together) and
    # the event loop closes each ahead of everyone else: 19,500 took it over a second; this many, tens of
    # milliseconds. Past it, a connection that starts to wait takes the place of the oldest waiting connection
    # of the address with the most waiting (web/admission.py), closed unanswered: it had sent no whole request,
    # and a browser reopens a kept-alive connection it finds closed. A trusted proxy's connections do not count.
    "WAITING_CONNECTIONS": 2000,

    # -- budgets (the `limits` library's storage: memory, or Redis when RATELIMIT_STORAGE_URI names one) --
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",     # with MESSAGE_QUEUE and this left as it is: the queue's Redis
    # Socket.IO events per socket: a player, and a socket that holds no seat (a spectator).
    "SOCKET_PLAYER_EVENTS": "100 per 20 seconds",
    "SOCKET_SPECTATOR_EVENTS": "60 per 20 seconds",
    # Socket.IO events per address, summed over its sockets (the benchmark's 400 clients send ~8,000 per 20 s).
    "SOCKET_ADDRESS_EVENTS": "30000 per 20 seconds",
    # A socket that keeps sending after this many refusals in a row is disconnected.
    "SOCKET_REFUSALS_BEFORE_CLOSE": 50,
    # Socket.IO connections: open at once per address (per process), and opened per address per minute.
    "CONNECTIONS_PER_ADDRESS": 600,
    "CONNECTION_RATE": "1200 per minute",
    # Sockets of one address watching one match (players included): each one is sent every broadcast of the
    # match, so one address could make each move cost hundreds of sends. A family or a class behind one NAT
    # watching one game stays under it.
    "WATCHERS_PER_ADDRESS": 30,
    # Bots' NDJSON streams (GET /api/stream/event, /api/bot/game/stream/<id>) open at once in one process, per
    # account and per address: a bot needs one event stream and one per game it plays. An idle stream costs its
    # socket and a greenlet; these keep a thousand of them from one client away. STREAM_KEEPALIVE: seconds
    # between the empty lines that keep a quiet stream open (and find a client that left); STREAM_RECHECK:
    # seconds after which a quiet stream checks that its token (or session) still stands.
    "STREAMS_PER_ACCOUNT": 20,
    "STREAMS_PER_ADDRESS": 200,
    "STREAM_KEEPALIVE": 5.0,
    "STREAM_RECHECK": 60.0,
    # Messages waiting to be sent to one socket: a client that does not read what it is sent (its connection
    # full) is disconnected past this, instead of the server keeping every STATE for it. A page that was asleep
    # reconnects and gets the newest STATE.
    "SOCKET_SEND_QUEUE": 100,
    # HTTP requests per address to the JSON API, and matches created per address (by link, name or import):
    # what one core serves besides everyone else. A request costs 1-5 ms of a core and a match made 2-4 ms, so
    # one address may take a few percent of a core, and a NAT of a hundred players still plays (a page makes a
    # few requests; bench/load.py's tables make 10 matches a minute each, from addresses of their own). The
    # earlier 6,000 and 3,000 a minute let one address keep a core busy on its own.
    "HTTP_RATE": "1200 per minute",
    "MATCH_CREATION_RATE": "300 per minute",
    # -- the work of imports and lists (issue 22) ------------------------------------------------------------
    # Moves imported per address (POST /api/matches/import): an import replays every move through the engine
    # and stores each (the longest Gamma record, 25,972 moves, takes 0.4 s of a core and 1.8 MB), so its moves
    # are what it costs; a save file counts its size / 16 bytes before it is read (web/rate_limits.py). An hour's
    # budget holds two of the longest records, or hundreds of real games.
    "IMPORT_MOVES_RATE": "60000 per hour",
    # Seconds an anonymous import that nobody opened, played or claimed is kept (matches/retention.py); None:
    # for ever. The page that imports opens it at once; a script's imports nobody looks at go after a day.
    "IMPORT_RETENTION": 86400.0,
    # A match played by name gives its name up when it ends or when nothing happened in it for this many seconds
    # (None: only when it ends), so that names cannot be taken in bulk by matches nobody plays.
    "NAME_IDLE": 1800.0,
    # Pictures of starting positions (the new-game dialog asks for one when an option changes) and a tutorial's
    # steps and tries, per address: each replays a short game through the engine.
    "LEARN_RATE": "1200 per minute",
    # The analysis board's positions and exports (web/analysis_board_pages.py), per address, counted in moves
    # replayed through the engine (a request costs its line's length, at least 1): the longest Towers line, 1,800
    # actions, takes about 35 ms of a core; ten minutes' budget is about a second of a core, and holds stepping
    # back and forth through dozens of real games.
    "ANALYSIS_BOARD_RATE": "60000 per 10 minutes",
    # Positions evaluated for the analysis board per address (POST /api/analysis/position): each is a search
    # of ANALYSIS_POSITION_NODES on a worker process.
    "ANALYSIS_POSITION_RATE": "30 per minute",
    # Puzzles (quadrille/puzzles/, web/puzzle_pages.py): requests of the puzzles' pages and JSON per address (each replays
    # a puzzle's position through the engine; a solved puzzle takes a few attempts); a guest address's results
    # that move puzzles' ratings (past it they are answered, unrated: a bot hammering attempts moves nothing);
    # and how many days before a puzzle a solver had a result of may be served to it again (a guest's results
    # are forgotten after as long; an account's puzzle is rated on its first result only, ever).
    "PUZZLE_RATE": "120 per minute",
    "PUZZLE_GUEST_RATED_RATE": "30 per hour",
    "PUZZLE_REPEAT_DAYS": 30.0,
    # -- accounts (quadrille/web/rate_limits.py, quadrille/accounts/login_budget.py) ------------------------
    # Every request that checks a password or makes an account (sign-up, login, API token, password change,
    # deletion), per address (an IPv6 address counts as its /64), together: each costs an Argon2 hash
    # (~0.2 s of CPU), and this slows password guessing. A family behind one NAT still logs in.
    "ACCOUNT_RATE": "30 per 10 minutes",
    # Accounts made per address in a day (only sign-ups that made one count): farms of accounts (alts that
    # feed each other ratings) need many, a household a few.
    "SIGNUP_RATE": "20 per day",
    # Password changes and deletions of one account (they need its session or API token): a stolen session
    # cannot guess the password behind it quickly, nor make the server hash without end.
    "PASSWORD_CHECK_RATE": "10 per hour",
    # Failed logins (and API tokens asked for) for one user name from browsers that never logged into it,
    # from any address: guessing spread over many addresses. Counted alike for names that exist and names
    # that do not. Past it, logging in for that name is slowed, not locked: one try per LOGIN_SLOW_RATE from
    # each address, so the owner with the right password still gets in, at once or after that delay.
    "LOGIN_NAME_RATE": "50 per hour",
    "LOGIN_SLOW_RATE": "1 per 30 seconds",
    # Failed logins for one name from one browser that logged into it before (its signed "known device"
    # cookie): such a browser never meets the name's budget above, which strangers can spend.
    "LOGIN_DEVICE_RATE": "20 per hour",
    # Argon2 runs beside the event loop in this many threads (each holds 64 MiB while it hashes, and uses up
    # to 4 cores), with at most PASSWORD_QUEUE more requests waiting for one; past that a request is refused at
    # once (429 `busy`). The threads run PASSWORD_NICE steps nicer than the server, so that on a small machine
    # the event loop still gets a core while they hash.
    "PASSWORD_WORKERS": 1,
    "PASSWORD_QUEUE": 8,
    "PASSWORD_NICE": 10,
    # Refusals (429, CSRF) are counted and logged as one summary line every this many seconds while they come,
    # never one line each (an attack's thousands drowned the log; web/refusal_log.py).
    "REFUSAL_LOG_INTERVAL": 60.0,
    # -- fair play between players (issue 22) ---------------------------------------------------------------
    # Challenges one account may make (each reaches the players challenged at once, so a burst of made and
    # cancelled challenges floods their pages), and challenges that may wait for one player's answer.
    "CHALLENGE_RATE": "30 per 10 minutes",
    "CHALLENGES_WAITING_MAX": 30,
    # Reports one account may send (quadrille/moderation/; besides a day's cap of 20), and how often each server
    # process looks at the moderation log for what the command line or another process did (seconds).
    "REPORT_RATE": "5 per 10 minutes",
    "MODERATION_POLL": 1.0,
    # Rated games of one game between the same two accounts in the last 24 hours; past it they are played
    # unrated (ratings/service.py: a newcomer's first games move a Glicko-2 rating most, and one opponent's
    # tenth game of the day is no fresh evidence).
    "RATED_GAMES_PER_PAIR": 3,
    # Who a game's leaderboard ranks (ratings/standing.py, which works the numbers out with the real Glicko-2):
    # an established rating (not provisional: its deviation at most 110, as lichess) after at least
    # LEADERBOARD_GAMES rated games against at least LEADERBOARD_OPPONENTS different accounts, the last within
    # LEADERBOARD_ACTIVE_DAYS. A farm of a few alt accounts is never ranked; players who left stop holding places.
    "LEADERBOARD_GAMES": 20,
    "LEADERBOARD_OPPONENTS": 5,
    "LEADERBOARD_ACTIVE_DAYS": 30.0,
    # The site's secret for signing session cookies; empty: a random one kept in the database (site_keys),
    # shared by the site's processes and kept over restarts.
    "SECRET_KEY": "",

    # -- presence ----------------------------------------------------------------------------------------
    # Presence announcements to a match's room are coalesced: at most one per match per this many seconds.
    "PRESENCE_INTERVAL": 0.25,
    # A player counts as present for this long after their last socket left or their last authenticated
    # HTTP request (a reload, a network blip, or a bot that polls).
    "PRESENCE_GRACE": 20.0,
    # Votes to hand an absent player's seat to the computer expire after this long.
    "VOTE_TTL": 120.0,
    # How long a player may be gone from an online game (their last tab closed) before the others may claim
    # victory, call it a draw or hand the seat over: lichess's and Board Game Arena's minute or so. A reload
    # takes a second; tests set a few seconds.
    "DISCONNECT_TIMEOUT": 60.0,
    # With a real-time clock, the clocks do not stop for an absent player, and the others may claim after this long
    # in a bullet or blitz game, twice it in a rapid one, three times in a classical one (lichess's 40 s). With
    # days per move, being away allows nothing (quadrille/matches/absence.py).
    "REALTIME_ABSENCE": 40.0,

    # -- games (games/__init__.py, docs/new-game.md) ---------------------------------------------------------
    # Games from packages outside games/, each a dotted name importable by the server (and its computer
    # workers): a list, or text separated by commas (QUADRILLE_GAME_PACKAGES=my_games.race). Each is added to
    # the one registry (games.register) at start-up, after Quadrille's own.
    "GAME_PACKAGES": [],
    # -- static files (quadrille/web/assets.py) ----------------------------------------------------------
    # Where the compressed static files are kept between starts (brotli's best quality takes a second or
    # two): None for build/assets beside static/, "" for nowhere (compressed again at every start).
    "ASSET_CACHE": None,
    # Development: read a changed static file again at the next request (otherwise: at the next start).
    "ASSETS_RELOAD": False,
    # -- clocks (quadrille/clocks/) -------------------------------------------------------------------------
    # The time controls a new match may have: real time from CLOCK_MINUTES_MIN to CLOCK_MINUTES_MAX minutes per
    # side (lichess's quarter of a minute to three hours; tests lower the minimum to play a game out in
    # seconds), plus 0 to CLOCK_INCREMENT_MAX seconds per move (per turn in Towers); correspondence from
    # CORRESPONDENCE_DAYS_MIN to CORRESPONDENCE_DAYS_MAX days per move.
    "CLOCK_MINUTES_MIN": 0.25,
    "CLOCK_MINUTES_MAX": 180,
    "CLOCK_INCREMENT_MAX": 180,
    "CORRESPONDENCE_DAYS_MIN": 1,
    "CORRESPONDENCE_DAYS_MAX": 14,
    # Every server process says it is alive this often (one row); a server that starts after none did for three
    # of these gives the running clocks back the time nobody served them.
    "CLOCK_BEAT": 1.0,

    # -- logs and metrics (quadrille/observability/, docs/hosting.md "Logs" and "Metrics") --------------------
    # The level of the log (DEBUG, INFO, WARNING, ERROR): INFO writes one access line per HTTP request and per
    # Socket.IO connection and disconnection; DEBUG adds Alembic's lines and the successful health checks.
    # Failed logins (WARNING) and moderation actions are written at any level.
    "LOG_LEVEL": "INFO",
    # "text" (one line per record: time, level, logger, message) or "json" (one JSON object per line, with the
    # access lines' fields apart: address, method, path, status, ms, bytes). The log goes to stderr.
    "LOG_FORMAT": "text",
    # Prometheus metrics at /metrics on an address of their own, "host:port" (e.g. "127.0.0.1:9464"), apart
    # from the site's listener so that nginx never serves them; "" (the default): off. In a cluster each app
    # process needs a port of its own, and Prometheus scrapes each one.
    "METRICS": "",
}
