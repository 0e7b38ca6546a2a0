import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type CreateReportInput = NonNullable<
  paths["/api/reports"]["post"]["requestBody"]
>["content"]["application/json"];

/** Files a report; `already` when this person had reported the item before (it counts once). */
export async function createReport(body: CreateReportInput): Promise<{ already: boolean }> {
  let status = 0;
  await unwrap(
    api.POST("/api/reports", { body }).then((result) => {
      status = result.response.status;
      return result;
    }),
  );
  return { already: status === 200 };
}

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
