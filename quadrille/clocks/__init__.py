"""Clocks: time controls for matches (real time: minutes per side plus an increment per turn; correspondence:
days per turn), kept by the server, flags that fall even when nobody is connected, and restarts that do not
steal time. See service.py; the arithmetic is state.py, the choice of a control control.py, who wins on time
results.py."""
from .control import Bounds, TimeControl, parse_time_control
from .service import Clocks, ClockedMatch
from .state import ClockState

__all__ = ["Bounds", "ClockedMatch", "Clocks", "ClockState", "TimeControl", "parse_time_control"]
