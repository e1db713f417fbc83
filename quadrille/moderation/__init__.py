"""Moderation: bans, mutes, closing and deleting matches, freeing match names, resetting ratings, players'
reports, and the audit log of it all (service.py; its SQL in store.py, the checks of what it is given in
decisions.py, what a running server does about a change in live.py). The operator's commands are
quadrille/admin/moderation_commands.py, the moderators' page and API quadrille/web/moderation_pages.py and
moderation_api.py; docs/moderation.md is the operator's guide."""
from .decisions import REASONS
from .service import ModerationService

__all__ = ["ModerationService", "REASONS"]
