import { z } from "zod";
import { PLAN_IDS } from "./plans";

export * from "./plans";

export const startTrialSchema = z
  .object({
    plan: z.enum(PLAN_IDS),
    /** Chosen by the page once per purchase: a retried or doubled submit makes one community. */
    request_id: z.uuid(),
  })
  .strict();
export type StartTrialInput = z.infer<typeof startTrialSchema>;
