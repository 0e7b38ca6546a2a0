import { numeric, text, timestamp, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

// Column shapes the table files share. Each helper returns a new builder: Drizzle builders must not be
// shared between tables. This file imports no table, so any table file can use it without a cycle.

/** A point in time, stored with its time zone, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The usual primary key: a random uuid made by the database. */
export const uuidPk = () => uuid("id").primaryKey().defaultRandom();

/** When the row was made. */
export const createdAt = () => ts("created_at").notNull().defaultNow();

/** When the row last changed (the code sets it on updates). */
export const updatedAt = () => ts("updated_at").notNull().defaultNow();

/** createdAt and updatedAt, in that order. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** An amount of money, two decimals, read as a number. */
export const money = (name: string) => numeric(name, { precision: 10, scale: 2, mode: "number" });

/** A required uuid link to another row; this row is deleted with it (ON DELETE CASCADE). */
export const uuidRef = (name: string, target: () => AnyPgColumn) =>
  uuid(name).notNull().references(target, { onDelete: "cascade" });

/** A required text link to another row (users have text ids); this row is deleted with it. */
export const textRef = (name: string, target: () => AnyPgColumn) =>
  text(name).notNull().references(target, { onDelete: "cascade" });
