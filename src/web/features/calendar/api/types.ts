import type { OccurrenceDto } from "#shared/calendar.schemas";

export type Occurrence = OccurrenceDto;
