#!/bin/sh
# Run by the postgres image once, when its data volume is created (mounted into
# /docker-entrypoint-initdb.d/ by docker-compose.yml): the owner and app roles of
# roles.sql, with the passwords from the environment.
set -eu
psql --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v db="$POSTGRES_DB" \
    -v owner=marram_owner -v owner_password="$MARRAM_DB_OWNER_PASSWORD" \
    -v app=marram_app -v app_password="$MARRAM_DB_APP_PASSWORD" \
    -f /marram-db/roles.sql
