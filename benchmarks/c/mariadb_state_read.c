/* The floor of a MariaDB/MySQL store's pre-start no-op: connect with Connector/C, read the state
 * row (one query), disconnect, exit 0 when a row came back. Declares the five calls it makes
 * (mysql.h is not installed with the runtime library, which Milepost loads the same way). */
#include <stdio.h>
#include <stdlib.h>

typedef struct st_mysql MYSQL;
typedef struct st_mysql_res MYSQL_RES;
MYSQL *mysql_init(MYSQL *);
MYSQL *mysql_real_connect(MYSQL *, const char *, const char *, const char *, const char *, unsigned int, const char *, unsigned long);
int mysql_query(MYSQL *, const char *);
MYSQL_RES *mysql_store_result(MYSQL *);
unsigned long long mysql_num_rows(MYSQL_RES *);
void mysql_free_result(MYSQL_RES *);
const char *mysql_error(MYSQL *);
void mysql_close(MYSQL *);

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: mariadb_state_read HOST PORT USER PASSWORD DATABASE\n"); return 64; }
    MYSQL *connection = mysql_init(NULL);
    if (!mysql_real_connect(connection, argv[1], argv[3], argv[4], argv[5], (unsigned) atoi(argv[2]), NULL, 0)) {
        fprintf(stderr, "%s\n", mysql_error(connection));
        return 69;
    }
    if (mysql_query(connection, "SELECT state FROM milepost_state WHERE id = 1")) { fprintf(stderr, "%s\n", mysql_error(connection)); return 74; }
    MYSQL_RES *result = mysql_store_result(connection);
    int ok = result && mysql_num_rows(result) == 1;
    if (result) mysql_free_result(result);
    mysql_close(connection);
    return ok ? 0 : 74;
}
