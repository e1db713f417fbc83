"""Socket.IO packets as Quadrille sends and reads them: JSON text only, encoded and decoded by orjson.

python-socketio encodes each broadcast once (a STATE is 1-3 KB) and decodes every event a client sends; with the
standard library's encoder and Engine.IO's decoder (which calls back into Python for every integer) that was
about 31 µs of the server's ~1 ms a move (a 1.3 KB Trails STATE and a `move` event, in process). orjson does the
same work in about 4 µs.

What a client reads is unchanged JSON (compact, as python-socketio writes it; UTF-8 where the standard encoder
wrote \\u escapes, which every JSON reader takes alike). What a client sends is read as strictly as before or
more so: text that is not JSON (NaN, a lone surrogate, nesting deeper than 1,024) is refused as a malformed
packet (web/socketio_server.py), and an integer too long for 64 bits becomes a float, which no event takes
where it wants an integer, instead of Engine.IO's refusal of more than 100 digits.
"""
from __future__ import annotations

import json

import orjson
from socketio import packet as socketio_packet

_ENCODE_OPTIONS = orjson.OPT_NON_STR_KEYS  # as json.dumps, an integer key becomes its text


class OrjsonCodec:
    """A JSON module as python-socketio uses one (`dumps`, `loads`); its keyword arguments (the separators)
    are those of compact JSON, which orjson always writes."""

    @staticmethod
    def dumps(value, **_compact) -> str:
        try:
            return orjson.dumps(value, option=_ENCODE_OPTIONS).decode("utf-8")
        except TypeError:
            # what orjson declines (an integer beyond 64 bits) the standard encoder may still write
            return json.dumps(value, separators=(",", ":"))

    @staticmethod
    def loads(text, **_options):
        return orjson.loads(text)


class PlainJsonPacket(socketio_packet.Packet):
    """Quadrille never sends binary data, so skip python-socketio's recursive search for binary parts in
    every outgoing packet: on a STATE it cost about a tenth of the server's time per move."""

    json = OrjsonCodec

    @classmethod
    def data_is_binary(cls, data) -> bool:
        return False
