"""The doors: the JSON HTTP API (http_api.py), the Socket.IO door (sockets.py) and the pages (pages.py)."""
