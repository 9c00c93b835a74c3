/* The floor of a PostgreSQL store's pre-start no-op: connect with libpq to the URL, read the state
 * row of the schema (one query), disconnect, exit 0 when a row came back. */
#include <stdio.h>
#include <libpq-fe.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: pg_state_read URL SCHEMA\n"); return 64; }
    PGconn *connection = PQconnectdb(argv[1]);
    if (PQstatus(connection) != CONNECTION_OK) { fprintf(stderr, "%s", PQerrorMessage(connection)); return 69; }
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT format, app, version, in_progress IS NULL, planned_with::text FROM \"%s\".state", argv[2]);
    PGresult *result = PQexec(connection, sql);
    int ok = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) == 1;
    if (!ok) fprintf(stderr, "%s", PQerrorMessage(connection));
    PQclear(result);
    PQfinish(connection);
    return ok ? 0 : 74;
}
