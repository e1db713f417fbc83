"""Bots as on lichess: the events a bot account hears and the NDJSON streams that carry them over HTTP.

    kit = bots.install(app, hub=bots.hub_for(redis_client, prefix, spawn, sleep), spawn=spawn)
    kit.events.on_state(match_id, state)          # the factory's broadcast: every STATE a room hears
    kit.events.on_challenge(account_id, event, c)  # the challenges' notifications

The pieces: hub.py (who waits for what, in one process or through Redis), events.py (lichess's event shapes
from the server's own news: challenge notifications, the match bus, the rooms' STATEs), streams.py (an NDJSON
body that waits on the hub and its budget). The HTTP door is web/bot_streams.py; an API token over Socket.IO
is web/socket_tokens.py. Nothing here touches the match core: it hears what the core already publishes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..matches import ENDED, REMATCH
from .events import BotEvents
from .hub import MemoryHub, RedisHub
from .streams import StreamBudget

__all__ = ["BotKit", "hub_for", "install"]


@dataclass
class BotKit:
    hub: MemoryHub
    events: BotEvents
    budget: StreamBudget
    keepalive: float
    recheck: float


def hub_for(redis_client, prefix: str, spawn: Callable, sleep: Callable, make_queue: Callable) -> MemoryHub:
    """One process: the memory hub; with a message queue (a Redis client): the Redis hub. `make_queue`: the
    async mode's queue (Engine.IO's `create_queue`)."""
    if redis_client is None:
        return MemoryHub(make_queue)
    return RedisHub(redis_client, prefix, spawn, sleep, make_queue)


def install(app, hub: MemoryHub, spawn: Callable) -> BotKit:
    """After the services are made (app.extensions): the events subscribe to the match bus, the streams'
    blueprint is registered. Returns the kit, also kept as app.extensions["quadrille.bots"]."""
    from ..web import bot_streams  # the door, registered here so the factory names bots once

    config, extensions = app.config, app.extensions
    events = BotEvents(hub, extensions["quadrille.accounts"], extensions["quadrille.ratings"], spawn)
    service = extensions["quadrille"]
    service.bus.subscribe(ENDED, events.on_ended)
    service.bus.subscribe(REMATCH, events.on_rematch)  # after accounts.on_rematch: the seats are recorded
    kit = BotKit(hub, events, StreamBudget(config["STREAMS_PER_ACCOUNT"], config["STREAMS_PER_ADDRESS"]),
                 float(config["STREAM_KEEPALIVE"]), float(config["STREAM_RECHECK"]))
    extensions["quadrille.bots"] = kit
    extensions.setdefault("quadrille.backends", []).append(hub)  # closed at shutdown
    app.register_blueprint(bot_streams.bp)
    return kit
