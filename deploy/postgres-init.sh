#!/bin/sh
# Run once by the postgres image when its volume is new (/docker-entrypoint-initdb.d, docker-compose.yml), as
# its superuser: the app's own role, an ordinary one (no superuser, no CREATEDB, no CREATEROLE), with the
# password of QUADRILLE_DB_PASSWORD, and the app's database, owned by that role. Safe to run again: it sets
# the password and the ownership anew. QUADRILLE_DB_USER and QUADRILLE_DB_NAME default to quadrille.
set -e
: "${QUADRILLE_DB_PASSWORD:?QUADRILLE_DB_PASSWORD is not set}"
# The password is read by psql from the environment (\getenv), never passed on a command line.
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "${POSTGRES_USER:-postgres}" --dbname postgres \
     -v role="${QUADRILLE_DB_USER:-quadrille}" -v db="${QUADRILLE_DB_NAME:-quadrille}" <<'SQL'
\getenv password QUADRILLE_DB_PASSWORD
SELECT format('CREATE ROLE %I', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role')
\gexec
ALTER ROLE :"role" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'password';
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role')
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db')
\gexec
ALTER DATABASE :"db" OWNER TO :"role";
SQL
