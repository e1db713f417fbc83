"""The tests' harness: what the tests share and nothing else runs (scripts/ may not import it).

    paths.py        ROOT, SHARED (the specifications beside the repository), read_jsonl
    waiting.py      wait_until: poll a condition instead of sleeping a guessed time
    servers.py      ServerProcess: one real `python app.py` on a free port and a database of its own;
                    ASYNC_MODES; service_directory (temporary directories other system users can reach)
    databases.py    databases already at the newest schema, copied from a template migrated once a session
                    (a file copy on SQLite, CREATE DATABASE ... TEMPLATE on PostgreSQL); stored_matches
    gamma_suites.py Gamma's scripted suites (tests/games and bench/gamma.py)

The servers themselves (PostgreSQL, Redis, nginx, an app process) are started by scripts/services/, which the
operators' scripts/cluster.py uses too; the tests import it from there.
"""
