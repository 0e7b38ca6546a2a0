import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { type FieldPath, type Resolver, useForm, useWatch } from "react-hook-form";
import {
  CALENDAR_MESSAGES as M,
  EDIT_SCOPE_LABELS,
  EDIT_SCOPES,
  EVENT_AUDIENCE_LABELS,
  EVENT_AUDIENCES,
  EVENT_LIMITS as L,
  type EditScope,
  type EventAudience,
  type EventLocationKind,
  type MonthlyMode,
  type RecurrenceEnd,
  type RecurrenceFrequency,
  WEEKDAY_LABELS,
  WEEKDAYS,
  type Weekday,
  isHttpUrl,
} from "#shared/calendar";
import { type CreateEventInput, createEventSchema, type UpdateEventInput } from "#shared/calendar.schemas";
import { UPLOAD_MESSAGES, acceptedExtensions } from "#shared/uploads";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { Field, inputClasses, TextareaField, TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { ApiError, api, errorMessage, unwrap } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { fileKindOf, fileTooLarge, useFileUpload } from "#web/lib/upload-file";
import type { CommunityView } from "#web/features/communities";
import { useCreateEvent, useEventChanges } from "../api/event-mutations";
import { eventQueryKeys } from "../api/event-keys";
import type { Occurrence } from "../api/types";
import { dayKey, monthlyLabels, weekdayOf, zoneOptions } from "../format";
import { useViewerZone } from "./event-bits";

type Repeat = "none" | RecurrenceFrequency;

/** The form's fields, as a person fills them in; `toInput` turns them into the API's body. */
type Values = {
  title: string;
  description: string;
  date: string;
  time: string;
  duration: string;
  time_zone: string;
  location_kind: EventLocationKind;
  meeting_url: string;
  place: string;
  cover_url: string | null;
  audience: EventAudience;
  tier_ids: string[];
  capacity: string;
  repeat: Repeat;
  interval: string;
  weekdays: Weekday[];
  monthly_mode: MonthlyMode;
  end: RecurrenceEnd;
  until: string;
  count: string;
  scope: EditScope;
  /** Editing one occurrence: the link to its recording. */
  recording_url: string;
};

const number = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));

/** The API's body for the form's values (before the shared schema checks it). */
function toInput(v: Values) {
  return {
    title: v.title,
    description: v.description,
    starts_at_local: `${v.date}T${v.time}`,
    time_zone: v.time_zone,
    duration_minutes: number(v.duration),
    location_kind: v.location_kind,
    meeting_url: v.location_kind === "online" ? v.meeting_url.trim() || null : null,
    place: v.location_kind === "place" ? v.place.trim() || null : null,
    cover_url: v.cover_url,
    audience: v.audience,
    tier_ids: v.audience === "tiers" ? v.tier_ids : [],
    capacity: v.capacity.trim() === "" ? null : number(v.capacity),
    recurrence:
      v.repeat === "none"
        ? null
        : {
            frequency: v.repeat,
            interval: number(v.interval) || 1,
            weekdays: v.repeat === "weekly" ? v.weekdays : [],
            monthly_mode: v.monthly_mode,
            end: v.end,
            until: v.end === "on_date" ? v.until || null : null,
            count: v.end === "after" ? number(v.count) : null,
          },
  };
}

/** Which field of the form a path of the API's body (or a server message) belongs to. */
function fieldOf(path: readonly PropertyKey[]): FieldPath<Values> {
  const [first, second] = path.map(String);
  if (first === "starts_at_local") return "date";
  if (first === "duration_minutes") return "duration";
  if (first === "recurrence") {
    if (second === "weekdays" || second === "until" || second === "count" || second === "interval") return second;
    return "repeat";
  }
  if (first === "tier_ids") return "tier_ids";
  const known: readonly string[] = [
    "title",
    "description",
    "time_zone",
    "location_kind",
    "meeting_url",
    "place",
    "cover_url",
    "audience",
    "capacity",
  ];
  return (known.includes(first) ? first : "root.server") as FieldPath<Values>;
}

/** The form field each request field is edited in (the server names the request field it refuses). */
const FORM_FIELD_OF: Record<string, FieldPath<Values>> = {
  title: "title",
  description: "description",
  starts_at_local: "date",
  time_zone: "time_zone",
  duration_minutes: "duration",
  meeting_url: "meeting_url",
  place: "place",
  cover_url: "cover_url",
  tier_ids: "tier_ids",
  capacity: "capacity",
  recording_url: "recording_url",
  scope: "scope",
  recurrence: "repeat",
  "recurrence.weekdays": "weekdays",
  "recurrence.until": "until",
  "recurrence.count": "count",
};

/** The form field a server refusal belongs to; null for one that belongs to no field. */
function fieldOfError(error: unknown): FieldPath<Values> | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  return FORM_FIELD_OF[error.field] ?? FORM_FIELD_OF[error.field.split(".")[0]] ?? null;
}

/** Stands in, while checking, for a meeting link the server keeps but does not show yet. */
const KEPT_LINK = "https://kept.invalid/";

/** The API's body for valid values, defaults applied as the server applies them; null if invalid. */
function bodyOf(values: Values, keepLink: boolean): CreateEventInput | null {
  const input = toInput(values);
  const kept = keepLink && input.location_kind === "online" && !input.meeting_url;
  const parsed = createEventSchema.safeParse(kept ? { ...input, meeting_url: KEPT_LINK } : input);
  if (!parsed.success) return null;
  return kept ? { ...parsed.data, meeting_url: null } : parsed.data;
}

/** Checks the form with the shared schema, the server's own rules, and reports each problem at its field. */
function resolverFor(keepsHiddenLink: boolean): Resolver<Values> {
  return (values) => {
    const input = toInput(values);
    // An online event whose link is not shown yet keeps it when the field is left empty.
    if (keepsHiddenLink && input.location_kind === "online" && !input.meeting_url) input.meeting_url = KEPT_LINK;
    const parsed = createEventSchema.safeParse(input);
    const errors: Record<string, { type: string; message: string }> = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path);
        errors[field] ??= { type: issue.code, message: issue.message };
      }
    if (values.recording_url.trim() && !isHttpUrl(values.recording_url.trim()))
      errors.recording_url ??= { type: "custom", message: M.recordingUrlInvalid };
    if (values.repeat !== "none" && values.end === "on_date" && values.until && values.until < values.date)
      errors.until ??= { type: "custom", message: M.untilBeforeStart };
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as never };
    return { values, errors: {} };
  };
}

function defaultsFor(editing: Occurrence | null, zone: string): Values {
  if (!editing) {
    // Tomorrow at the next full hour's time, in the viewer's zone.
    const start = Date.now() + 24 * 3600_000;
    const hour = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: zone }).format(start);
    return {
      title: "",
      description: "",
      date: dayKey(start, zone),
      time: `${hour}:00`,
      duration: "60",
      time_zone: zone,
      location_kind: "online",
      meeting_url: "",
      place: "",
      cover_url: null,
      audience: "members",
      tier_ids: [],
      capacity: "",
      repeat: "none",
      interval: "1",
      weekdays: [],
      monthly_mode: "day_of_month",
      end: "never",
      until: "",
      count: "",
      scope: "one",
      recording_url: "",
    };
  }
  const r = editing.recurrence;
  return {
    title: editing.title,
    description: editing.description,
    date: editing.starts_at_local.slice(0, 10),
    time: editing.starts_at_local.slice(11, 16),
    duration: String(editing.duration_minutes),
    time_zone: editing.time_zone,
    location_kind: editing.location_kind,
    meeting_url: editing.meeting_url ?? "",
    place: editing.place ?? "",
    cover_url: editing.cover_url,
    audience: editing.audience,
    tier_ids: editing.tier_ids,
    capacity: editing.capacity == null ? "" : String(editing.capacity),
    repeat: r ? r.frequency : "none",
    interval: String(r?.interval ?? 1),
    weekdays: r?.weekdays ?? [],
    monthly_mode: r?.monthly_mode ?? "day_of_month",
    end: r?.end ?? "never",
    until: r?.until ?? "",
    count: r?.count == null ? "" : String(r.count),
    scope: "one",
    recording_url: editing.recording_url ?? "",
  };
}

/** What changed between two bodies, kept whole where the API checks fields together. */
function changes(
  before: CreateEventInput | null,
  after: CreateEventInput,
  scope: EditScope,
  keepLink: boolean,
): UpdateEventInput {
  const out: Record<string, unknown> = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const key of Object.keys(after) as (keyof CreateEventInput)[]) {
    if (key === "recurrence" && scope === "one") continue;
    if (!before || !same(before[key], after[key])) out[key] = after[key];
  }
  if ("location_kind" in out || "place" in out || ("meeting_url" in out && after.meeting_url)) {
    out.location_kind = after.location_kind;
    out.place = after.place;
    out.meeting_url = after.meeting_url;
  }
  // A link not shown yet, left empty: unchanged.
  if (keepLink && after.location_kind === "online" && !after.meeting_url) delete out.meeting_url;
  if ("audience" in out || "tier_ids" in out) {
    out.audience = after.audience;
    out.tier_ids = after.tier_ids;
  }
  return { ...out, scope } as UpdateEventInput;
}

/** 'New event' and 'Edit' (owners and admins): every field of an event, checked as the server checks it. */
export function EventFormDialog({
  community,
  editing,
  onClose,
}: {
  community: CommunityView;
  editing: Occurrence | null;
  onClose: (saved: boolean) => void;
}) {
  const zone = useViewerZone();
  const defaults = useMemo(() => defaultsFor(editing, zone), [editing, zone]);
  const keepLink = Boolean(editing?.has_meeting_link && !editing.meeting_url);
  const create = useCreateEvent(community.id);
  const { update } = useEventChanges(editing ?? { id: "", community_id: community.id });
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: resolverFor(keepLink), defaultValues: defaults });
  const v = useWatch({ control }) as Values;
  const monthly = monthlyLabels(v.date);
  const zones = useMemo(() => zoneOptions(editing?.time_zone ?? zone), [editing, zone]);
  const tiers = useQuery({
    queryKey: eventQueryKeys.tiers(community.id),
    queryFn: () =>
      unwrap(api.GET("/api/communities/{communityId}/tiers", { params: { path: { communityId: community.id } } })),
  });
  const tierList = tiers.data?.tiers ?? [];
  const audiences = EVENT_AUDIENCES.filter((a) => a !== "tiers" || tierList.length > 0 || v.audience === "tiers");

  const upload = useFileUpload({
    communityId: community.id,
    uploadType: "posts",
    failedMessage: UPLOAD_MESSAGES.uploadFailed,
    check: (file) => {
      if (fileKindOf(file) !== "image") return UPLOAD_MESSAGES.invalidFileType(acceptedExtensions(["image"]));
      return fileTooLarge(file, "image") ? UPLOAD_MESSAGES.fileSizeExceeds(10) : null;
    },
  });
  useEffect(() => {
    if (upload.state.status === "done") {
      const { result } = upload.state;
      setValue("cover_url", result.variants?.medium ?? result.url, { shouldDirty: true });
    }
  }, [upload.state, setValue]);
  const uploading = upload.state.status === "uploading";

  const mutation = editing ? update : create;
  const submit = handleSubmit(async (values) => {
    const body = bodyOf(values, keepLink);
    if (!body) return;
    try {
      if (editing) {
        const patch = changes(bodyOf(defaults, keepLink), body, values.scope, keepLink);
        const recording = values.recording_url.trim() || null;
        if (values.scope === "one" && recording !== (editing.recording_url ?? null)) patch.recording_url = recording;
        if (Object.keys(patch).length > 1) await update.mutateAsync(patch);
        toast.success("Event saved");
      } else {
        await create.mutateAsync(body);
        toast.success("Event created");
      }
      onClose(true);
    } catch (error) {
      const field = fieldOfError(error);
      if (field && error instanceof ApiError) setError(field, { type: "server", message: error.message });
    }
  });
  const serverError =
    mutation.error && !fieldOfError(mutation.error)
      ? errorMessage(mutation.error, editing ? "Could not save the event" : "Could not create the event", [
          "VALIDATION",
          "FORBIDDEN",
          "NOT_FOUND",
          "CONFLICT",
        ])
      : null;
  const showRepeat = !editing || !editing.recurring || v.scope !== "one";

  return (
    <Dialog open onOpenChange={(open) => !open && onClose(false)}>
      <DialogContent title={editing ? "Edit event" : "New event"} size="md">
        <form onSubmit={submit} noValidate className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
          {serverError && <FormMessage tone="error">{serverError}</FormMessage>}
          {editing?.recurring && (
            <fieldset>
              <legend className="mb-2 text-sm font-semibold text-stone-900">Change</legend>
              <div className="grid gap-1.5">
                {EDIT_SCOPES.map((s) => (
                  <label key={s} className="flex items-center gap-2 text-sm text-stone-800">
                    <input type="radio" value={s} className="accent-brand-700" {...register("scope")} />
                    {EDIT_SCOPE_LABELS[s]}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <TextField
            label="Title"
            placeholder="e.g. Weekly live Q&A"
            autoComplete="off"
            maxLength={L.titleMax}
            autoFocus
            required
            error={errors.title?.message}
            {...register("title")}
          />
          <TextareaField
            label="Description (optional)"
            rows={3}
            maxLength={L.descriptionMax}
            error={errors.description?.message}
            {...register("description")}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="Date" type="date" required error={errors.date?.message} {...register("date")} />
            <TextField label="Start time" type="time" required error={errors.time?.message} {...register("time")} />
            <TextField
              label="Duration (minutes)"
              type="number"
              inputMode="numeric"
              min={L.durationMinMinutes}
              max={L.durationMaxMinutes}
              step={5}
              required
              error={errors.duration?.message}
              {...register("duration")}
            />
          </div>
          <Field label="Time zone" error={errors.time_zone?.message}>
            {(ids) => (
              <select {...ids} className={cn(inputClasses, "h-10")} {...register("time_zone")}>
                {zones.map((z) => (
                  <option key={z.value} value={z.value}>
                    {z.label}
                  </option>
                ))}
              </select>
            )}
          </Field>

          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-stone-900">Where</legend>
            <div className="flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm text-stone-800">
                <input type="radio" value="online" className="accent-brand-700" {...register("location_kind")} />
                Online
              </label>
              <label className="flex items-center gap-2 text-sm text-stone-800">
                <input type="radio" value="place" className="accent-brand-700" {...register("location_kind")} />
                In person
              </label>
            </div>
            {v.location_kind === "online" ? (
              <TextField
                label="Meeting link"
                type="url"
                placeholder="https://"
                maxLength={L.urlMax}
                hint={
                  keepLink
                    ? "Leave it empty to keep the current link."
                    : `Shown to those who may attend from ${L.linkRevealMinutes} minutes before the start.`
                }
                error={errors.meeting_url?.message}
                {...register("meeting_url")}
              />
            ) : (
              <TextField label="Place" maxLength={L.placeMax} error={errors.place?.message} {...register("place")} />
            )}
          </fieldset>

          <Field
            label="Cover image (optional)"
            hint="JPEG, PNG, WebP or GIF up to 10MB."
            error={upload.state.status === "error" ? upload.state.error : errors.cover_url?.message}
          >
            {(ids) => (
              <div className="flex items-center gap-4">
                <div className="flex h-16 w-28 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-stone-200 bg-stone-50 text-xs text-stone-600">
                  {v.cover_url ? (
                    <img
                      src={v.cover_url}
                      alt="Event cover"
                      width={112}
                      height={64}
                      className="h-full w-full object-cover"
                    />
                  ) : upload.state.status === "uploading" ? (
                    `${Math.round(upload.state.progress * 100)}%`
                  ) : (
                    "No image"
                  )}
                </div>
                <div className="flex flex-wrap gap-2">
                  <input
                    {...ids}
                    type="file"
                    accept="image/jpeg,image/png,image/webp,image/gif"
                    className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-100 file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-stone-200"
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      if (file) upload.start(file);
                      e.target.value = "";
                    }}
                  />
                  {v.cover_url && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => {
                        upload.reset();
                        setValue("cover_url", null, { shouldDirty: true });
                      }}
                    >
                      Remove image
                    </Button>
                  )}
                </div>
              </div>
            )}
          </Field>

          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-semibold text-stone-900">Who may attend</legend>
            <div className="flex flex-wrap gap-4">
              {audiences.map((a) => (
                <label key={a} className="flex items-center gap-2 text-sm text-stone-800">
                  <input type="radio" value={a} className="accent-brand-700" {...register("audience")} />
                  {EVENT_AUDIENCE_LABELS[a]}
                </label>
              ))}
            </div>
            {v.audience === "tiers" && (
              <div role="group" aria-label="Tiers that may attend" className="space-y-2 pl-1">
                {tierList.map((t) => (
                  <label key={t.id} className="flex items-center gap-2 text-sm text-stone-800">
                    <input type="checkbox" value={t.id} className="accent-brand-700" {...register("tier_ids")} />
                    {t.name}
                  </label>
                ))}
                {errors.tier_ids?.message && <p className="text-sm text-red-700">{errors.tier_ids.message}</p>}
              </div>
            )}
          </fieldset>

          <TextField
            label="Capacity (optional)"
            type="number"
            inputMode="numeric"
            min={1}
            max={L.capacityMax}
            placeholder="No limit"
            hint="When it is full, members can join a waitlist."
            className="max-w-xs"
            error={errors.capacity?.message}
            {...register("capacity")}
          />

          {editing && v.scope === "one" && (
            <TextField
              label="Recording link (optional)"
              type="url"
              placeholder="https://"
              maxLength={L.urlMax}
              hint="Shown with the event once it has ended."
              error={errors.recording_url?.message}
              {...register("recording_url")}
            />
          )}

          {showRepeat && (
            <div className="space-y-3">
              <Field label="Repeat" error={errors.repeat?.message}>
                {(ids) => (
                  <select
                    {...ids}
                    className={cn(inputClasses, "h-10")}
                    {...register("repeat", {
                      // A weekly event starts with its first date's weekday ticked.
                      onChange: (event: { target: { value: string } }) => {
                        if (event.target.value === "weekly" && v.weekdays.length === 0 && v.date)
                          setValue("weekdays", [weekdayOf(v.date)]);
                      },
                    })}
                  >
                    <option value="none">Does not repeat</option>
                    <option value="daily">Daily</option>
                    <option value="weekly">Weekly</option>
                    <option value="monthly">Monthly</option>
                  </select>
                )}
              </Field>
              {v.repeat === "weekly" && (
                <div>
                  <div role="group" aria-label="Days of the week" className="flex flex-wrap gap-1.5">
                    {WEEKDAYS.map((d) => {
                      const on = v.weekdays.includes(d);
                      return (
                        <button
                          key={d}
                          type="button"
                          aria-pressed={on}
                          onClick={() =>
                            setValue(
                              "weekdays",
                              on
                                ? v.weekdays.filter((w) => w !== d)
                                : WEEKDAYS.filter((w) => w === d || v.weekdays.includes(w)),
                              {
                                shouldDirty: true,
                              },
                            )
                          }
                          className={cn(
                            "h-9 min-w-11 cursor-pointer rounded-lg px-2 text-sm font-semibold ring-1 transition-colors focus-visible:outline-2 focus-visible:outline-brand-700",
                            on
                              ? "bg-brand-700 text-white ring-brand-700"
                              : "bg-white text-stone-700 ring-stone-300 hover:bg-stone-50",
                          )}
                        >
                          {WEEKDAY_LABELS[d]}
                        </button>
                      );
                    })}
                  </div>
                  {errors.weekdays?.message && <p className="mt-1.5 text-sm text-red-700">{errors.weekdays.message}</p>}
                </div>
              )}
              {v.repeat === "monthly" && (
                <div className="grid gap-1.5">
                  {(["day_of_month", "nth_weekday"] as const).map((m) => (
                    <label key={m} className="flex items-center gap-2 text-sm text-stone-800">
                      <input type="radio" value={m} className="accent-brand-700" {...register("monthly_mode")} />
                      {monthly[m]}
                    </label>
                  ))}
                </div>
              )}
              {v.repeat !== "none" && (
                <fieldset>
                  <legend className="mb-1.5 text-sm font-medium text-stone-800">Ends</legend>
                  <div className="grid gap-2">
                    <label className="flex items-center gap-2 text-sm text-stone-800">
                      <input type="radio" value="never" className="accent-brand-700" {...register("end")} />
                      Never
                    </label>
                    <label className="flex items-center gap-2 text-sm text-stone-800">
                      <input type="radio" value="on_date" className="accent-brand-700" {...register("end")} />
                      On a date
                    </label>
                    {v.end === "on_date" && (
                      <TextField
                        label="Last date"
                        type="date"
                        className="max-w-xs pl-6"
                        error={errors.until?.message}
                        {...register("until")}
                      />
                    )}
                    <label className="flex items-center gap-2 text-sm text-stone-800">
                      <input type="radio" value="after" className="accent-brand-700" {...register("end")} />
                      After a number of times
                    </label>
                    {v.end === "after" && (
                      <TextField
                        label="Times in all"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={L.countMax}
                        className="max-w-xs pl-6"
                        error={errors.count?.message}
                        {...register("count")}
                      />
                    )}
                  </div>
                </fieldset>
              )}
            </div>
          )}

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => onClose(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={uploading}>
              {editing ? "Save changes" : "Create event"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
