import { MESSAGING_MESSAGES } from "#shared/messaging";
import { Avatar } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { Bone, LoadingRegion } from "#web/components/ui/load-states";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useBlocks, useSetBlocked } from "../api/blocks";

/** Edit Profile → Privacy: the people I blocked, each with Unblock. */
export function BlockedPeople() {
  const blocks = useBlocks();
  const unblock = useSetBlocked();
  const list = blocks.data?.blocks ?? [];

  if (blocks.isPending)
    return (
      <LoadingRegion label="Loading blocked people" className="space-y-2">
        <Bone className="h-12 rounded-xl bg-stone-200/70" />
      </LoadingRegion>
    );
  if (blocks.isError)
    return (
      <FormMessage tone="error">{errorMessage(blocks.error, "Couldn't load the people you blocked.")}</FormMessage>
    );
  if (list.length === 0)
    return (
      <p className="rounded-xl border border-stone-200 px-4 py-3 text-sm text-stone-600">You haven't blocked anyone.</p>
    );

  return (
    <ul aria-label="Blocked people" className="divide-y divide-stone-200 rounded-xl border border-stone-200">
      {list.map(({ user }) => {
        const name = user.full_name || user.username;
        const pending = unblock.isPending && unblock.variables?.userId === user.id;
        return (
          <li key={user.id} className="flex items-center gap-3 px-4 py-2.5">
            <Avatar src={user.avatar_url} name={name} size="sm" />
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-semibold text-stone-900">{name}</span>
              <span className="block truncate text-sm text-stone-600">@{user.username}</span>
            </span>
            <Button
              variant="secondary"
              size="sm"
              loading={pending}
              aria-label={`Unblock ${name}`}
              onClick={() =>
                unblock.mutate(
                  { userId: user.id, blocked: false },
                  {
                    onSuccess: () => toast.success(MESSAGING_MESSAGES.unblocked),
                    onError: (error) => toast.error(errorMessage(error, "Something went wrong. Please try again.")),
                  },
                )
              }
            >
              Unblock
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
