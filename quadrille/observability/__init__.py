"""What an operator sees of a running server: its log (logs.py) and its Prometheus metrics (metrics.py).

Both stand beside the rest and hook in at the doors only: a WSGI middleware around the app, wrappers around the
Socket.IO handlers that python-socketio calls, listeners of the services' own hooks. Nothing here is called from
the match core, and the cost per move is one Counter.inc and one Histogram.observe (metrics, when enabled).

    logs.configure(level="INFO", fmt="text")   # app.py, before anything logs
    logs.install(app, socketio)                 # create_app: access lines, failed logins
    metrics.install(app, socketio)              # create_app: only when the METRICS setting names an address
"""
