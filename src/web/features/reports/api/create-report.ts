import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { createReportSchema } from "#shared/reports.schemas";
import { request } from "./request";

export type CreateReportInput = z.input<typeof createReportSchema>;
export type CreateReportResult = { already_reported: boolean };

export const createReport = (body: CreateReportInput) => request<CreateReportResult>("POST", "/api/reports", body);

/** Files a report; a second report of the same item by the same person counts once (already_reported). */
export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
