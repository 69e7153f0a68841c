/** What a PostgreSQL schema may be called here, checked by the configuration and the store. */

/** Plain identifiers only: the name is spliced into `search_path` and `create schema`. */
export const POSTGRES_SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
