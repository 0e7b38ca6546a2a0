import { z } from "zod";

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** The error answers every route may give, for the OpenAPI document. */
export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  413: errorBody,
  429: errorBody,
} as const;

/** The answer of every upload (SPEC §3 uploaded file result); images add their variants' URLs. */
export const uploadResult = z.object({
  url: z.string(),
  path: z.string(),
  key: z.string().optional(),
  size: z.number(),
  type: z.string(),
  variants: z.object({ original: z.string(), medium: z.string(), thumbnail: z.string() }).optional(),
});
