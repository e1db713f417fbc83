"""How many password guesses one account's name may take, without letting anyone lock its owner out.

The budget per name used to count every login before anything was checked: 50 cheap wrong logins for
`victimuser`, from anywhere, made its owner's correct login 429 from every address, renewably. Now, as large
sites do (OWASP's "device cookies"):

- Only **failed** attempts count (a right password costs nothing of any budget here).
- A **known device** (a browser whose signed cookie says it logged into this account before, see
  web/known_devices.py) never meets the name's budget: it has a budget of its own failures for that name
  (`per_device`), which only its own holder can spend.
- Any other device meets the name's budget of failures (`per_name`, counted alike for names that exist and
  names that do not). Once that is spent, logging in is **slowed, not locked**: one attempt per `slow` from
  each address for that name. The owner, on a new device and any address the guesser does not hold, gets in
  with the right password at once, or after one such delay; a guesser gets one guess per delay per address
  (each address's own budget, web/rate_limits.py's ACCOUNT_RATE, bounds it further).

Counts are the `limits` library's, in the same storage as every other budget (memory, or Redis shared by the
processes). Testing before and counting after lets a few attempts run at once past a budget's last unit;
the password pool bounds how many can.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from limits import parse
from limits.strategies import FixedWindowRateLimiter, SlidingWindowCounterRateLimiter

from ..errors import ServiceError
from ..i18n import _ln


@dataclass(frozen=True)
class Attempt:
    """What a login attempt is counted against if it fails: a budget and its key."""
    limit: object
    keys: tuple


def slowed(seconds: float) -> ServiceError:
    wait = max(1, math.ceil(seconds))
    return ServiceError(429, "rate-limited",
                        _ln("Too many failed logins for this name; try again in %(num)d second.",
                            "Too many failed logins for this name; try again in %(num)d seconds.", wait),
                        retry_after=wait)


class LoginBudget:
    def __init__(self, storage, per_name: str, per_device: str, slow: str, enabled: bool = True):
        """`storage`: a `limits` storage (Flask-Limiter's own); the budgets in the `limits` notation ("50 per
        hour"). Failures are counted in sliding windows, as every other budget; the slow lane in fixed ones,
        so that its delay is what it says (a sliding window of one attempt would wait up to twice as long)."""
        self.strategy = SlidingWindowCounterRateLimiter(storage)
        self.lane = FixedWindowRateLimiter(storage)
        self.enabled = enabled
        self.per_name, self.per_device, self.slow = parse(per_name), parse(per_device), parse(slow)

    def admit(self, name, address: str, device: str | None) -> Attempt | None:
        """May this attempt go ahead? Answers what to count it against if it fails; 429 `rate-limited` (with
        `retry_after`, seconds) otherwise. `device`: the known device's id when the browser logged into this
        account before, else None."""
        if not self.enabled:
            return None
        name = name_key(name)
        if device is not None:
            attempt = Attempt(self.per_device, ("login-device", name, device))
            if not self.strategy.test(attempt.limit, *attempt.keys):
                raise slowed(self._reset_in(attempt, self.strategy))
            return attempt
        attempt = Attempt(self.per_name, ("login-name", name))
        if self.strategy.test(attempt.limit, *attempt.keys):
            return attempt
        lane = Attempt(self.slow, ("login-slow", name, address))
        if not self.lane.hit(lane.limit, *lane.keys):
            raise slowed(self._reset_in(lane, self.lane))
        return attempt

    def failed(self, attempt: Attempt | None) -> None:
        if attempt is not None:
            self.strategy.hit(attempt.limit, *attempt.keys)

    @staticmethod
    def _reset_in(attempt: Attempt, strategy) -> float:
        """Seconds until the window of `attempt`'s budget lets one more through (at least one)."""
        stats = strategy.get_window_stats(attempt.limit, *attempt.keys)
        return max(1.0, stats.reset_time - time.time())


def name_key(name) -> str:
    """Names are unique ignoring case; anything that is not text counts as one name, "?"."""
    return name.lower()[:40] if isinstance(name, str) else "?"
