"""`python -m games.gamma`: the assignment's batch and interactive program (see batch.py)."""
import sys

from games.gamma.batch import main

sys.exit(main())
