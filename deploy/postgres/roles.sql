-- The two database roles of a marram deployment, made once by a superuser:
--
--   owner  owns the database, its schema and every table; `manage.py migrate`
--          and `manage.py grant_app_role APP` run as this role.
--   app    what the web server, the Celery worker and beat and the mail listener
--          connect as: it owns nothing, so it cannot disable the event log's
--          triggers, and grant_app_role gives it SELECT/INSERT/UPDATE/DELETE on
--          the tables but only SELECT/INSERT on the event log (no TRUNCATE).
--
-- psql -v db=marram -v owner=marram_owner -v app=marram_app \
--      -v owner_password=... -v app_password=... -f roles.sql
-- (docker-compose runs it from deploy/postgres/initdb.sh when the volume is new.)
\set ON_ERROR_STOP on

CREATE ROLE :"owner" LOGIN PASSWORD :'owner_password';
CREATE ROLE :"app" LOGIN PASSWORD :'app_password';

ALTER DATABASE :"db" OWNER TO :"owner";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO :"app";

\connect :"db"
ALTER SCHEMA public OWNER TO :"owner";
-- nobody but the owner creates anything in the schema
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";
