// libpq, PostgreSQL's C client; the PostgresStore target (Internals/LibPQ.swift) is its only user.
#include <libpq-fe.h>
