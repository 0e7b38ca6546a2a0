import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { TriangleAlert } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "#web/lib/toast";
import { Button, buttonClasses } from "#web/components/ui/button";
import { overlayClasses } from "#web/components/ui/dialog";
import { TextField } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import type { CommunityView } from "#web/features/communities";
import { useDeleteCommunity } from "../api/delete-community";

/** The owner deletes the community after typing its name; then home. */
export function DangerZone({ community }: { community: CommunityView }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = useDeleteCommunity(community.id);
  const navigate = useNavigate();
  const matches = typed.trim() === community.name.trim();

  const onOpenChange = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped("");
      remove.reset();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches || remove.isPending) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        navigate("/", { replace: true });
        remove.forget();
        toast.success(`${community.name} was deleted.`);
      },
    });
  };

  return (
    <section className="rounded-xl border border-red-200 bg-white p-4 sm:p-5" aria-labelledby="danger-zone-title">
      <h4 id="danger-zone-title" className="flex items-center gap-2 text-sm font-semibold text-red-800">
        <TriangleAlert className="size-4" aria-hidden="true" />
        Danger zone
      </h4>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-stone-600">
          Deleting the community removes its posts, members, categories and images for good.
        </p>
        <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
          Delete community
        </Button>
      </div>

      <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className={cn(overlayClasses, "z-[60]")} />
          <AlertDialog.Content
            className={cn(
              "fixed top-1/2 left-1/2 z-[60] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2",
              "rounded-2xl bg-white p-6 shadow-2xl ring-1 ring-stone-900/5 focus:outline-none data-[state=open]:animate-dialog-in",
            )}
          >
            <form onSubmit={onSubmit}>
              <AlertDialog.Title className="text-lg font-bold text-stone-900">
                Delete {community.name}?
              </AlertDialog.Title>
              <AlertDialog.Description className="mt-2 text-sm text-stone-600">
                This cannot be undone. Every post, member, category and image of this community will be removed.
              </AlertDialog.Description>
              <TextField
                className="mt-5"
                label={
                  <>
                    Type <strong className="font-semibold text-stone-900">{community.name}</strong> to confirm
                  </>
                }
                autoComplete="off"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
              />
              {remove.error && (
                <FormMessage tone="error" className="mt-4">
                  {errorMessage(remove.error, "Failed to delete the community. Please try again.", ["FORBIDDEN"])}
                </FormMessage>
              )}
              <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <AlertDialog.Cancel className={buttonClasses({ variant: "secondary" })} disabled={remove.isPending}>
                  Cancel
                </AlertDialog.Cancel>
                <Button type="submit" variant="danger" disabled={!matches} loading={remove.isPending}>
                  Delete community
                </Button>
              </div>
            </form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </section>
  );
}
