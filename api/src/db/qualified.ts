import { getTableName, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A column as "table"."column". Drizzle leaves the table out of a select without joins, so inside a
 * correlated subquery a bare `${patients.id}` would bind to the subquery's own "id": use this there.
 */
export function qualified(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
