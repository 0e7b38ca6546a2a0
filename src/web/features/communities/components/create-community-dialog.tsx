import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { createCommunitySchema } from "#shared/communities.schemas";
import { LIMITS } from "#shared/limits";
import { MSG } from "#shared/messages";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useCreateCommunityMutation } from "../api/create-community";

/** Server answers a person can act on; anything else reads as the spec's generic failure. */
const SPECIFIC_CODES = ["VALIDATION", "UNAUTHORIZED", "FORBIDDEN", "CONFLICT"] as const;

/** "Create a community": a name, then the new community's setup page. */
export function CreateCommunityDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Create a community"
        description="Give it a name to start. You can add a description, an icon and a cover on the next step."
      >
        <CreateCommunityForm onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CreateCommunityForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const create = useCreateCommunityMutation();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createCommunitySchema>, unknown, z.output<typeof createCommunitySchema>>({
    resolver: zodResolver(createCommunitySchema),
    defaultValues: { name: "" },
  });
  const length = (useWatch({ control, name: "name" }) ?? "").length;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { slug } = await create.mutateAsync(values);
      navigate(`/community/${encodeURIComponent(slug)}/setup`);
    } catch {
      // shown from create.error
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5 px-6 pt-5 pb-6 sm:px-8 sm:pb-8">
      {create.error && (
        <FormMessage tone="error">{errorMessage(create.error, MSG.createCommunityFailed, SPECIFIC_CODES)}</FormMessage>
      )}
      <TextField
        label="Community name"
        placeholder="e.g. Sunday Sketchers"
        autoComplete="off"
        maxLength={LIMITS.communityNameMax}
        autoFocus
        error={errors.name?.message}
        aside={
          <span
            className={cn(
              "text-sm tabular-nums",
              length >= LIMITS.communityNameMax ? "text-red-700" : "text-stone-600",
            )}
          >
            {length}/{LIMITS.communityNameMax}
          </span>
        }
        {...register("name")}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Create community
        </Button>
      </div>
    </form>
  );
}
