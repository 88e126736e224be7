#ifndef CPOSTGRES_SHIM_H
#define CPOSTGRES_SHIM_H
#include <libpq-fe.h>

/* The error fields are character macros ('C', 'M'), which Swift does not import. */
static const int cpostgres_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cpostgres_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;

/* The type OIDs of the parameters and columns the ledger uses (catalog/pg_type_d.h, which
   libpq-dev does not install; these values are fixed in the catalog). */
static const unsigned int cpostgres_int2_oid = 21;
static const unsigned int cpostgres_int4_oid = 23;
static const unsigned int cpostgres_int8_oid = 20;
static const unsigned int cpostgres_text_oid = 25;
#endif
