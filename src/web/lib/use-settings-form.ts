import { useEffect, useMemo } from "react";
import { type DefaultValues, type FieldValues, type Resolver, type UseFormReturn, useForm } from "react-hook-form";
import { useFlashMessage } from "./use-flash-message";

type DirtyFields<TInput extends FieldValues> = UseFormReturn<TInput>["formState"]["dirtyFields"];

/** What the hook needs of a TanStack mutation (its useMutation result fits). */
export type SaveMutation<TChanges, TSaved> = {
  mutateAsync: (changes: TChanges) => Promise<TSaved>;
  reset: () => void;
  isPending: boolean;
  error: unknown;
};

/** The fields the person changed, with their values: what a PATCH sends. */
export function dirtyValues<TOutput extends object>(form: TOutput, dirty: object): Partial<TOutput> {
  return Object.fromEntries(
    Object.entries(dirty)
      .filter(([, changed]) => changed)
      .map(([key]) => [key, form[key as keyof TOutput]]),
  ) as Partial<TOutput>;
}

/**
 * A settings form (react-hook-form) saved by one mutation: the form starts from the saved values,
 * reports whether it holds unsaved changes, saves what `changes` makes of the valid form, starts
 * again from the answer and shows `savedMessage` for 3 s. A failure stays in `mutation.error`.
 *
 * With `follow` (the default) the form follows `source` as it changes elsewhere, keeping the
 * fields being edited; without it the form only starts from it.
 */
export function useSettingsForm<
  TInput extends FieldValues,
  TOutput extends FieldValues = TInput,
  TSource = unknown,
  TChanges = Partial<TOutput>,
  TSaved = TSource,
>({
  source,
  toValues,
  resolver,
  follow = true,
  mutation,
  changes,
  savedMessage,
  onDirtyChange,
  canSave,
}: {
  /** What the form shows when nothing is edited (the community, the profile…). */
  source: TSource;
  /** The form's values for `source` and for the mutation's answer; keep it stable (module level). */
  toValues: (saved: TSource | TSaved) => TInput;
  resolver?: Resolver<TInput, unknown, TOutput>;
  follow?: boolean;
  mutation: SaveMutation<TChanges, TSaved>;
  /** The request for the valid form; `dirty` marks the fields the person changed. */
  changes: (form: TOutput, dirty: DirtyFields<TInput>) => TChanges;
  savedMessage: string | ((saved: TSaved) => string);
  onDirtyChange: (dirty: boolean) => void;
  /** Checked before saving; false stops the save (the check shows its own message). */
  canSave?: (form: TOutput) => boolean;
}) {
  const flash = useFlashMessage();
  const values = useMemo(() => toValues(source), [source, toValues]);
  const form = useForm<TInput, unknown, TOutput>({
    ...(resolver ? { resolver } : {}),
    ...(follow
      ? { values, resetOptions: { keepDirtyValues: true } }
      : { defaultValues: values as DefaultValues<TInput> }),
  });
  const { isDirty, dirtyFields } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const onSubmit = form.handleSubmit(async (valid) => {
    if (canSave && !canSave(valid)) return;
    flash.clear();
    mutation.reset();
    try {
      const saved = await mutation.mutateAsync(changes(valid, dirtyFields));
      form.reset(toValues(saved));
      flash.show(typeof savedMessage === "function" ? savedMessage(saved) : savedMessage);
    } catch {
      // shown from the mutation's error
    }
  });

  return {
    form,
    onSubmit,
    /** The props of the settings tabs' SaveBar. */
    saveBar: {
      pending: mutation.isPending,
      dirty: isDirty,
      error: mutation.error,
      success: flash.message,
      onDiscard: () => {
        mutation.reset();
        form.reset(values);
      },
    },
  };
}
