import type { ReactNode } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { cn } from "#web/lib/cn";

type Choice<V extends string> = { value: V; label: string; description: string; icon: ReactNode };

/** A radio group drawn as cards (native radios: arrow keys and forms work as usual). */
export function ChoiceCards<V extends string>({
  legend,
  name,
  value,
  onChange,
  choices,
}: {
  legend: string;
  name: string;
  value: V;
  onChange: (value: V) => void;
  choices: readonly Choice<V>[];
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-stone-900">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {choices.map((choice) => {
          const checked = choice.value === value;
          return (
            <label
              key={choice.value}
              className={cn(
                "relative flex cursor-pointer gap-3 rounded-xl border bg-white p-4 transition-colors",
                "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700",
                checked
                  ? "border-brand-600 bg-brand-50/60 ring-1 ring-brand-600"
                  : "border-stone-200 hover:border-stone-300",
              )}
            >
              <input
                type="radio"
                name={name}
                value={choice.value}
                checked={checked}
                onChange={() => onChange(choice.value)}
                className="sr-only"
              />
              <span
                className={cn(
                  "flex size-9 shrink-0 items-center justify-center rounded-lg [&_svg]:size-5",
                  checked ? "bg-brand-700 text-white" : "bg-stone-100 text-stone-600",
                )}
                aria-hidden="true"
              >
                {choice.icon}
              </span>
              <span className="min-w-0">
                <span className="block text-sm font-semibold text-stone-900">{choice.label}</span>
                <span className="mt-0.5 block text-sm text-stone-600">{choice.description}</span>
              </span>
              <span
                className={cn(
                  "absolute top-3 right-3 size-4 rounded-full border-2",
                  checked ? "border-brand-700 bg-brand-700 shadow-[inset_0_0_0_2px_white]" : "border-stone-300",
                )}
                aria-hidden="true"
              />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** ChoiceCards bound to one field of a react-hook-form form. */
export function ChoiceCardsField<T extends FieldValues, TOutput = T>({
  control,
  field: fieldName,
  ...cards
}: {
  control: Control<T, unknown, TOutput>;
  field: FieldPath<T>;
  legend: string;
  name: string;
  choices: readonly Choice<string>[];
}) {
  const { field } = useController({ control, name: fieldName });
  return <ChoiceCards {...cards} value={field.value as string} onChange={field.onChange} />;
}
