/** The statements the database plumbing runs: start-up checks, bootstrap and the migration lock. */

/** Whether a server answers at all. */
export const PING_SQL = 'SELECT 1';

/** $1 database name. */
export const DATABASE_EXISTS_SQL = 'SELECT 1 FROM pg_database WHERE datname = $1';

/** CREATE DATABASE takes no bind parameters: `name` is one of this module's constants. */
export const createDatabaseSql = (name: string): string => `CREATE DATABASE ${name}`;

/**
 * Lets the application role log in with the generated password. ALTER ROLE takes no bind
 * parameters; the password is hex-only (generated), so it is safe to inline.
 */
export const appRoleLoginSql = (role: string, hexPassword: string): string => {
  if (!/^[0-9a-f]+$/i.test(hexPassword)) throw new Error('the generated password is not hex');
  return `ALTER ROLE ${role} WITH LOGIN PASSWORD '${hexPassword}' NOSUPERUSER NOBYPASSRLS`;
};

/** The connecting role: superuser, BYPASSRLS, or owner of a table (row-level security would not apply). */
export const CURRENT_ROLE_POWERS_SQL = `SELECT r.rolname, r.rolsuper, r.rolbypassrls,
       EXISTS (SELECT 1 FROM pg_class c WHERE c.relowner = r.oid AND c.relkind = 'r'
               AND c.relnamespace = 'public'::regnamespace) AS owns
  FROM pg_roles r WHERE r.rolname = current_user`;

export interface CurrentRolePowersRow {
  rolname: string;
  rolsuper: boolean;
  rolbypassrls: boolean;
  owns: boolean;
}

/** $1 the lock's key: serialises concurrent migration runs. */
export const MIGRATION_LOCK_SQL = 'SELECT pg_advisory_lock($1)';
export const MIGRATION_UNLOCK_SQL = 'SELECT pg_advisory_unlock($1)';
