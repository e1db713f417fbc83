"""One file per schema revision, oldest first: 0001_release_schema.py, 0002_..., each revising the one before."""
