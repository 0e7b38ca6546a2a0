import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationSettingsUpdate } from "#shared/validation.schemas";
import { api, unwrap } from "#web/lib/api";
import type { paths } from "#web/lib/api-types";

export type NotificationSettings =
  paths["/api/me/notification-settings"]["get"]["responses"][200]["content"]["application/json"];

const notificationSettingsKey = ["account", "notification-settings"] as const;

export const fetchNotificationSettings = () => unwrap(api.GET("/api/me/notification-settings"));

export const notificationSettingsQueryOptions = () =>
  queryOptions({ queryKey: notificationSettingsKey, queryFn: fetchNotificationSettings });

export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions());
}

export const updateNotificationSettings = (body: NotificationSettingsUpdate) =>
  unwrap(api.PATCH("/api/me/notification-settings", { body }));

/** Saves one switch at a time, showing it at once and putting it back if the save fails. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: notificationSettingsKey });
      const previous = queryClient.getQueryData<NotificationSettings>(notificationSettingsKey);
      if (previous) {
        const flags = change.community_settings ?? {};
        queryClient.setQueryData<NotificationSettings>(notificationSettingsKey, {
          ...previous,
          ...change,
          community_settings: previous.community_settings,
          communities: previous.communities.map((c) =>
            flags[c.id] ? { ...c, flags: { ...c.flags, ...flags[c.id] } } : c,
          ),
        });
      }
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(notificationSettingsKey, context.previous);
    },
    onSuccess: (settings) => queryClient.setQueryData(notificationSettingsKey, settings),
  });
}
