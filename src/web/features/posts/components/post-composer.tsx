import { Send } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { MSG } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { inputClasses } from "../../../components/ui/field";
import { FormMessage } from "../../../components/ui/form-message";
import { Label } from "../../../components/ui/label";
import { Select } from "../../../components/ui/select";
import { errorMessage } from "../../../lib/api";
import { cn } from "../../../lib/cn";
import { type PostVisibility, useCreatePost } from "../api/create-post";

export const POST_MAX_LENGTH = 10_000;

export type ComposerCategory = { id: string; name: string; emoji: string };
export type PostedResult = { id: string; is_approved: boolean; created_at: string };

const NO_CATEGORY = "none";

const VISIBILITY_OPTIONS: readonly { value: PostVisibility; label: string }[] = [
  { value: "public", label: "Public" },
  { value: "members", label: "Members only" },
  { value: "admins", label: "Admins only" },
];

/**
 * Writes a text post in one community. Blank content is ignored (the submit button stays off);
 * categories come from the community, visibility is offered to owners and admins only.
 */
export function PostComposer({
  communityId,
  categories,
  canChooseVisibility,
  onPosted,
  autoFocus = false,
  className,
}: {
  communityId: string;
  categories: readonly ComposerCategory[];
  canChooseVisibility: boolean;
  onPosted?: (post: PostedResult) => void;
  autoFocus?: boolean;
  className?: string;
}) {
  const id = useId();
  const [content, setContent] = useState("");
  const [categoryId, setCategoryId] = useState(NO_CATEGORY);
  const [visibility, setVisibility] = useState<PostVisibility>("public");
  const createPost = useCreatePost(communityId);
  const blank = content.trim() === "";
  const tooLong = content.length > POST_MAX_LENGTH;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || tooLong || createPost.isPending) return;
    createPost.mutate(
      {
        content,
        category_id: categoryId === NO_CATEGORY ? null : categoryId,
        ...(canChooseVisibility ? { visibility } : {}),
      },
      {
        onSuccess: (post) => {
          setContent("");
          onPosted?.(post);
        },
      },
    );
  };

  const contentId = `${id}-content`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const nearLimit = content.length > POST_MAX_LENGTH - 500;

  return (
    <form onSubmit={onSubmit} className={cn("space-y-4", className)} noValidate>
      <div>
        <Label htmlFor={contentId} className="sr-only">
          Post content
        </Label>
        <textarea
          id={contentId}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          placeholder="Write something..."
          rows={5}
          // Opened on purpose from the composer button: the writer expects the cursor here.
          autoFocus={autoFocus}
          aria-invalid={tooLong || undefined}
          aria-describedby={
            [createPost.isError ? errorId : null, nearLimit ? counterId : null].filter(Boolean).join(" ") || undefined
          }
          className={cn(inputClasses, "min-h-32 resize-y py-3 text-base leading-relaxed sm:text-sm")}
        />
        {nearLimit && (
          <p id={counterId} className={cn("mt-1.5 text-right text-sm", tooLong ? "text-red-700" : "text-stone-600")}>
            {content.length.toLocaleString("en-US")} / {POST_MAX_LENGTH.toLocaleString("en-US")}
          </p>
        )}
      </div>

      {(categories.length > 0 || canChooseVisibility) && (
        <div className="grid gap-4 sm:grid-cols-2">
          {categories.length > 0 && (
            <div>
              <Label htmlFor={`${id}-category`} className="mb-1.5">
                Category
              </Label>
              <Select
                id={`${id}-category`}
                value={categoryId}
                onValueChange={setCategoryId}
                options={[
                  { value: NO_CATEGORY, label: "No category" },
                  ...categories.map((c) => ({ value: c.id, label: c.emoji ? `${c.emoji} ${c.name}` : c.name })),
                ]}
              />
            </div>
          )}
          {canChooseVisibility && (
            <div>
              <Label htmlFor={`${id}-visibility`} className="mb-1.5">
                Who can see it
              </Label>
              <Select
                id={`${id}-visibility`}
                value={visibility}
                onValueChange={(v) => setVisibility(v as PostVisibility)}
                options={VISIBILITY_OPTIONS}
              />
            </div>
          )}
        </div>
      )}

      {createPost.isError && (
        <div id={errorId}>
          <FormMessage tone="error">
            {errorMessage(createPost.error, MSG.createPostFailed, ["VALIDATION", "FORBIDDEN"])}
          </FormMessage>
        </div>
      )}

      <div className="flex justify-end">
        <Button type="submit" disabled={blank || tooLong} loading={createPost.isPending}>
          {!createPost.isPending && <Send className="size-4" aria-hidden="true" />}
          Post
        </Button>
      </div>
    </form>
  );
}
