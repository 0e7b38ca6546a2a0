import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Tags } from "lucide-react";
import { useFieldArray, useWatch } from "react-hook-form";
import { z } from "zod";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { postCategoriesSchema } from "#shared/communities.schemas";
import { Button } from "#web/components/ui/button";
import { inputClasses } from "#web/components/ui/field";
import { cn } from "#web/lib/cn";
import { useSettingsForm } from "#web/lib/use-settings-form";
import type { CommunityView } from "#web/features/communities";
import { useReplacePostCategories } from "../api/replace-post-categories";
import { ListRowActions } from "./list-row-actions";
import { Counter, EmptyList, ListError, SettingsForm, type SettingsTabProps } from "./settings-panel";

const item = postCategoriesSchema.shape.categories.element.shape;
// `cid`, not `id`: useFieldArray keeps its own row key in `id`.
const categoriesFormSchema = z.object({
  categories: z
    .array(z.object({ cid: z.string().optional(), name: item.name, emoji: item.emoji }))
    .max(COMMUNITY_LIMITS.categoriesMax, `At most ${COMMUNITY_LIMITS.categoriesMax} categories`),
});
type CategoriesInput = z.input<typeof categoriesFormSchema>;
type CategoriesOutput = z.output<typeof categoriesFormSchema>;

const toValues = (categories: CommunityView["post_categories"]): CategoriesInput => ({
  categories: categories.map((c) => ({ cid: c.id, name: c.name, emoji: c.emoji })),
});

/** Post categories: add, rename, pick an emoji, reorder, delete; saved together in list order. */
export function CategoriesTab({ community, onDirtyChange }: SettingsTabProps) {
  const { form, ...settings } = useSettingsForm({
    source: community.post_categories,
    toValues,
    resolver: zodResolver(categoriesFormSchema),
    mutation: useReplacePostCategories(community.id),
    changes: (form: CategoriesOutput) =>
      form.categories.map((c) => ({ ...(c.cid ? { id: c.cid } : {}), name: c.name, emoji: c.emoji })),
    savedMessage: "Categories saved.",
    onDirtyChange,
  });
  const {
    register,
    control,
    setFocus,
    formState: { errors },
  } = form;
  const { fields, append, remove, move } = useFieldArray({ control, name: "categories" });
  const watched = useWatch({ control, name: "categories" }) ?? [];
  const full = fields.length >= COMMUNITY_LIMITS.categoriesMax;

  const onAdd = () => {
    append({ name: "", emoji: "💬" }, { shouldFocus: false });
    // Focus the new name, not its emoji.
    window.setTimeout(() => setFocus(`categories.${fields.length}.name`), 0);
  };

  return (
    <SettingsForm
      settings={settings}
      saveLabel="Save categories"
      title="Categories"
      description="Members file their posts under these. The feed shows them as tabs after 'All posts', in this order."
      aside={<Counter value={fields.length} max={COMMUNITY_LIMITS.categoriesMax} />}
    >
      <div className="flex flex-wrap gap-2" aria-label="Preview of the category tabs" role="group">
        <span className="rounded-full bg-stone-900 px-3 py-1 text-sm font-medium text-white">All posts</span>
        {watched
          .filter((c) => c.name.trim())
          .map((c, index) => (
            <span
              key={index}
              className="rounded-full bg-white px-3 py-1 text-sm font-medium text-stone-700 ring-1 ring-stone-200"
            >
              {c.emoji && <span className="mr-1">{c.emoji}</span>}
              {c.name}
            </span>
          ))}
      </div>

      {fields.length === 0 ? (
        <EmptyList icon={Tags} title="No categories yet">
          Without categories every post appears under All posts. Add a few, such as Introductions or Wins.
        </EmptyList>
      ) : (
        <ol className="space-y-2">
          {fields.map((field, index) => {
            const error = errors.categories?.[index];
            const label = watched[index]?.name.trim() || `category ${index + 1}`;
            return (
              <li key={field.id} className="rounded-xl border border-stone-200 bg-white p-2 shadow-xs">
                <div className="flex items-center gap-2">
                  <div className="w-12 shrink-0">
                    <input
                      className={cn(inputClasses, "h-10 px-0 text-center text-lg")}
                      aria-label={`Emoji for category ${index + 1}`}
                      maxLength={16}
                      {...register(`categories.${index}.emoji`)}
                    />
                  </div>
                  <div className="min-w-0 flex-1">
                    <input
                      className={cn(inputClasses, "h-10")}
                      aria-label={`Category ${index + 1} name`}
                      placeholder="Category name"
                      maxLength={COMMUNITY_LIMITS.categoryNameMax}
                      aria-invalid={error?.name ? true : undefined}
                      {...register(`categories.${index}.name`)}
                    />
                  </div>
                  <ListRowActions what={label} index={index} count={fields.length} onMove={move} onRemove={remove} />
                </div>
                {(error?.name || error?.emoji) && (
                  <p className="mt-1.5 px-1 text-sm text-red-700">{error.name?.message ?? error.emoji?.message}</p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <ListError message={errors.categories?.root?.message} />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={onAdd} disabled={full}>
          <Plus className="size-4" aria-hidden="true" />
          Add category
        </Button>
        <p className="text-sm text-stone-600">Posts in a removed category stay, under All posts.</p>
      </div>
    </SettingsForm>
  );
}
