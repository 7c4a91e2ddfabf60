import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';

/**
 * For the TypeORM CLI (`typeorm migration:show -d dist/src/cli/data-source.js`): connects
 * with DATABASE_MIGRATION_URL (the owner). `npm run migration:run` is the supported path.
 */
const url = process.env.DATABASE_MIGRATION_URL ?? process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_MIGRATION_URL (or DATABASE_URL) must be set');
export default new DataSource(dataSourceOptions(url, 2, 3000, ENTITIES));
