"""`python -m quadrille.i18n extract|update|compile|check|init xx` (quadrille/i18n/catalogs.py)."""
import sys

from .catalogs import main

sys.exit(main())
