"""Socket.IO packets as the server writes and reads them (quadrille/web/packets.py): the JSON a client reads is
what the standard library's encoder meant, and what orjson cannot write is still written."""
from __future__ import annotations

import json

import pytest
from socketio import packet as socketio_packet

from quadrille.web.packets import OrjsonCodec, PlainJsonPacket


def encoded(data) -> str:
    return PlainJsonPacket(socketio_packet.EVENT, data=data).encode()


def test_an_event_reads_back_as_the_standard_library_reads_it():
    state = {"match": "abc", "version": 12, "legal": {"a1": ["a2", "b2"]}, "view": [[0, 1], [None, 2.5]],
             "title": "Tours et sentiers \u2014 \u00e9t\u00e9", "outcome": None, "started": True}
    text = encoded(["state", state])
    # the standard encoder's compact JSON, with UTF-8 where it wrote \u escapes
    assert text == "2" + json.dumps(["state", state], separators=(",", ":"), ensure_ascii=False)


def test_integer_keys_become_text_as_json_dumps_makes_them():
    assert json.loads(OrjsonCodec.dumps({1: "a", 2: "b"})) == json.loads(json.dumps({1: "a", 2: "b"}))


def test_what_orjson_declines_the_standard_encoder_still_writes():
    assert json.loads(OrjsonCodec.dumps({"big": 2 ** 70})) == {"big": 2 ** 70}
    with pytest.raises(TypeError):
        OrjsonCodec.dumps({"a set": {1}})  # as json.dumps refuses it


def test_a_received_event_decodes_to_its_data():
    pkt = PlainJsonPacket(encoded_packet='21["move",{"match":"m","move":"up","version":3}]')
    assert (pkt.id, pkt.data) == (1, ["move", {"match": "m", "move": "up", "version": 3}])


@pytest.mark.parametrize("text", ['2["move",NaN]', '2["move","\\ud800"]', '2["move",' + "[" * 2000 + "]" * 2000 + "]",
                                  '2["move",{"version":'])
def test_text_that_is_not_json_is_refused(text):
    with pytest.raises(ValueError):
        PlainJsonPacket(encoded_packet=text)


def test_no_packet_is_searched_for_binary_parts():
    assert PlainJsonPacket.data_is_binary(["state", {"view": b"not ours"}]) is False
