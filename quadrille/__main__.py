"""`python -m quadrille admin ...`: the operator's commands (quadrille/admin/cli.py). The server itself starts
with app.py (scripts/serve.sh)."""
from __future__ import annotations

import sys

USAGE = "usage: python -m quadrille admin COMMAND ...   (python -m quadrille admin --help)"


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "admin":
        print(USAGE, file=sys.stderr)
        return 2
    from .admin.cli import main as admin_main
    return admin_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
