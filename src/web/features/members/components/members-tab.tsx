import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import { Ban, MoreHorizontal, Search, UserMinus, Users } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { toast } from "#web/lib/toast";
import { MSG } from "#shared/messages";
import { assignableRoles, COMMUNITY_ROLES, type CommunityRole, mayRemoveMember, ROLE_LABELS } from "#shared/roles";
import { ConfirmDialog } from "#web/components/ui/alert-dialog";
import { Avatar } from "#web/components/ui/avatar";
import { LevelAvatar } from "#web/features/levels";
import { Button, buttonClasses } from "#web/components/ui/button";
import { overlayClasses, panelClasses } from "#web/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { inputClasses } from "#web/components/ui/field";
import { FormMessage } from "#web/components/ui/form-message";
import { Label } from "#web/components/ui/label";
import { Select } from "#web/components/ui/select";
import { errorMessage } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { useMe } from "#web/lib/session";
import { useDebouncedValue } from "#web/lib/use-debounced-value";
import type { CommunityView } from "#web/features/communities";
import { MessageButton } from "#web/features/messages";
import { useBanMember } from "../api/ban-member";
import { type MemberRow, useMembers } from "../api/get-members";
import { useRemoveMember } from "../api/remove-member";
import { useUpdateMemberRole } from "../api/update-member-role";
import { EmptyState } from "#web/components/empty-state";
import { RoleBadge } from "./role-badge";
import { shortDate } from "#shared/format";
import { LoadingRegion } from "#web/components/ui/load-states";

const ALL_ROLES = "all";
const displayName = (m: Pick<MemberRow, "full_name" | "username">) => m.full_name || m.username || "Former member";

type PendingAction = { kind: "remove" | "ban" | "owner"; member: MemberRow } | null;

/**
 * The members table (SPEC §6): search, role filter, pages of 25; a role select built from
 * assignableRoles (rows the viewer may not change are locked), remove and ban for those allowed.
 */
export function MembersTab({ community: c }: { community: CommunityView }) {
  const id = useId();
  const me = useMe();
  const myId = me.data?.user?.id ?? null;
  const [query, setQuery] = useState("");
  const [roleFilter, setRoleFilter] = useState<string>(ALL_ROLES);
  const q = useDebouncedValue(query, 300);
  const filters = useMemo(
    () => ({ q, role: roleFilter === ALL_ROLES ? null : (roleFilter as CommunityRole) }),
    [q, roleFilter],
  );
  const members = useMembers(c.id, filters);
  const rows = useMemo(() => members.data?.pages.flatMap((p) => p.items) ?? [], [members.data]);
  const viewerRole = members.data?.pages[0]?.viewer_role ?? c.viewer.role;

  const updateRole = useUpdateMemberRole(c.id);
  const [pendingRole, setPendingRole] = useState<{ userId: string; role: CommunityRole } | null>(null);
  const [action, setAction] = useState<PendingAction>(null);
  const remove = useRemoveMember(c.id);
  const ban = useBanMember(c.id);

  const changeRole = (member: MemberRow, role: CommunityRole) => {
    setPendingRole({ userId: member.user_id, role });
    updateRole.mutate(
      { userId: member.user_id, role },
      {
        onSuccess: () => toast.success(`${displayName(member)} is now ${article(role)} ${ROLE_LABELS[role]}.`),
        onError: (error) => toast.error(errorMessage(error, MSG.updateRoleFailed, ["FORBIDDEN"])),
        onSettled: () => setPendingRole(null),
      },
    );
  };

  const onRoleSelected = (member: MemberRow, role: CommunityRole) => {
    if (role === member.role) return;
    // Another owner can never be demoted again by you: ask first.
    if (role === "owner") setAction({ kind: "owner", member });
    else changeRole(member, role);
  };

  const manageable = rows.some((m) => mayRemoveMember(viewerRole, m.role, m.user_id === myId));
  const filtered = q.trim() !== "" || roleFilter !== ALL_ROLES;

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-bold tracking-tight text-stone-900">
            Members
          </h2>
          <p className="text-sm text-stone-600">
            {c.member_count === 1 ? "1 member" : `${c.member_count.toLocaleString("en-US")} members`}
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Label htmlFor={`${id}-search`} className="sr-only">
            Search members
          </Label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500"
            aria-hidden="true"
          />
          <input
            id={`${id}-search`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by name or username"
            maxLength={100}
            className={cn(inputClasses, "h-10 pl-9")}
          />
        </div>
        <div className="flex items-center gap-2 sm:w-52">
          <Label htmlFor={`${id}-role`} className="shrink-0 text-stone-600">
            Role
          </Label>
          <Select
            id={`${id}-role`}
            value={roleFilter}
            onValueChange={setRoleFilter}
            options={[
              { value: ALL_ROLES, label: "All roles" },
              ...COMMUNITY_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
            ]}
          />
        </div>
      </div>

      {members.isPending ? (
        <LoadingRegion label="Loading members" className="space-y-2">
          {[0, 1, 2, 3].map((n) => (
            <div key={n} className="h-16 animate-pulse rounded-2xl bg-stone-200/60" />
          ))}
        </LoadingRegion>
      ) : members.isError ? (
        <FormMessage tone="error">{errorMessage(members.error, "Failed to load members.", ["FORBIDDEN"])}</FormMessage>
      ) : rows.length === 0 ? (
        <EmptyState icon={Users} title={filtered ? "No members match" : "No members yet"} headingLevel={3}>
          {filtered && <p>Try another name or role.</p>}
        </EmptyState>
      ) : (
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
          <table className="w-full table-fixed text-left text-sm">
            <caption className="sr-only">Members of {c.name} and their roles</caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-xs font-semibold tracking-wide text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  Member
                </th>
                <th scope="col" className="w-36 px-2 py-3 sm:w-44 sm:px-4">
                  Role
                </th>
                <th scope="col" className="hidden w-36 px-4 py-3 md:table-cell">
                  Joined
                </th>
                {manageable && (
                  <th scope="col" className="w-12 py-3 pr-2">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((m) => {
                const isSelf = m.user_id === myId;
                const options = assignableRoles(viewerRole, m.role, isSelf);
                const name = displayName(m);
                const shownRole = pendingRole?.userId === m.user_id ? pendingRole.role : m.role;
                return (
                  <tr key={m.user_id} className="align-middle">
                    <td className="py-3 pr-2 pl-3 sm:px-4">
                      <div className="flex items-center gap-3">
                        <LevelAvatar level={m.level} names={c.level_names} className="max-sm:hidden">
                          <Avatar src={m.avatar_url} name={name} />
                        </LevelAvatar>
                        <div className="min-w-0">
                          <p className="truncate font-semibold text-stone-900">
                            {m.username ? (
                              <Link to={`/u/${encodeURIComponent(m.username)}`} className="hover:underline">
                                {name}
                              </Link>
                            ) : (
                              name
                            )}
                            {isSelf && <span className="ml-1.5 font-normal text-stone-600">(you)</span>}
                          </p>
                          <p className="truncate text-stone-600">
                            {m.username && `@${m.username}`}
                            {m.headline && <span className="hidden sm:inline"> · {m.headline}</span>}
                          </p>
                        </div>
                        {myId && !isSelf && m.username && (
                          <MessageButton userId={m.user_id} name={name} iconOnly className="ml-auto" />
                        )}
                      </div>
                    </td>
                    <td className="px-2 py-3 sm:px-4">
                      {options.length > 0 ? (
                        <>
                          <label htmlFor={`${id}-role-${m.user_id}`} className="sr-only">
                            Role of {name}
                          </label>
                          <Select
                            id={`${id}-role-${m.user_id}`}
                            value={shownRole}
                            disabled={pendingRole?.userId === m.user_id}
                            onValueChange={(value) => onRoleSelected(m, value as CommunityRole)}
                            options={[m.role, ...options].map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                          />
                        </>
                      ) : (
                        <RoleBadge role={m.role} />
                      )}
                    </td>
                    <td className="hidden px-4 py-3 whitespace-nowrap text-stone-600 md:table-cell">
                      <time dateTime={m.joined_at}>{shortDate(m.joined_at)}</time>
                    </td>
                    {manageable && (
                      <td className="py-3 pr-2 text-right">
                        {mayRemoveMember(viewerRole, m.role, isSelf) && (
                          <DropdownMenu modal={false}>
                            <DropdownMenuTrigger
                              className={buttonClasses({ variant: "ghost", size: "icon" })}
                              aria-label={`More actions for ${name}`}
                            >
                              <MoreHorizontal className="size-4" aria-hidden="true" />
                            </DropdownMenuTrigger>
                            <DropdownMenuContent className="min-w-52">
                              <DropdownMenuItem onSelect={() => setAction({ kind: "remove", member: m })}>
                                <UserMinus aria-hidden="true" />
                                Remove from community
                              </DropdownMenuItem>
                              <DropdownMenuItem
                                className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800 [&_svg]:text-red-600"
                                onSelect={() => setAction({ kind: "ban", member: m })}
                              >
                                <Ban aria-hidden="true" />
                                Remove and ban
                              </DropdownMenuItem>
                            </DropdownMenuContent>
                          </DropdownMenu>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {members.hasNextPage && (
            <div className="flex justify-center border-t border-stone-100 p-3">
              <Button
                variant="secondary"
                onClick={() => void members.fetchNextPage()}
                loading={members.isFetchingNextPage}
              >
                Load more
              </Button>
            </div>
          )}
        </div>
      )}

      <ConfirmDialog
        open={action?.kind === "owner"}
        onOpenChange={(open) => !open && setAction(null)}
        title={action ? `Make ${displayName(action.member)} an owner?` : ""}
        description="Owners have full control of the community, including its settings and other owners. You will not be able to change their role afterwards."
        confirmLabel="Make owner"
        onConfirm={() => action && changeRole(action.member, "owner")}
      />
      <ConfirmDialog
        open={action?.kind === "remove"}
        onOpenChange={(open) => !open && setAction(null)}
        title={action ? `Remove ${displayName(action.member)}?` : ""}
        description="They lose access to members-only posts and courses. They can join again later."
        confirmLabel="Remove"
        destructive
        onConfirm={() => {
          if (!action) return;
          const member = action.member;
          remove.mutate(member.user_id, {
            onSuccess: () => toast.success(`${displayName(member)} was removed.`),
            onError: (error) =>
              toast.error(errorMessage(error, "Failed to remove member.", ["FORBIDDEN", "NOT_FOUND"])),
          });
        }}
      />
      <BanDialog
        member={action?.kind === "ban" ? action.member : null}
        onClose={() => setAction(null)}
        onConfirm={(member, reason) =>
          ban.mutate(
            { userId: member.user_id, reason },
            {
              onSuccess: () => toast.success(`${displayName(member)} was removed and banned.`),
              onError: (error) => toast.error(errorMessage(error, "Failed to ban member.", ["FORBIDDEN", "NOT_FOUND"])),
            },
          )
        }
      />
    </section>
  );
}

const article = (role: CommunityRole) => (role === "admin" || role === "owner" ? "an" : "a");

/** Remove and ban, with an optional reason kept in the bans list. */
function BanDialog({
  member,
  onClose,
  onConfirm,
}: {
  member: MemberRow | null;
  onClose: () => void;
  onConfirm: (member: MemberRow, reason: string) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState("");
  const name = member ? displayName(member) : "";
  return (
    <AlertDialogPrimitive.Root
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) {
          onClose();
          setReason("");
        }
      }}
    >
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={cn(overlayClasses, "z-[60]")} />
        <AlertDialogPrimitive.Content className={cn(panelClasses, "z-[60] max-w-md p-6")}>
          <AlertDialogPrimitive.Title className="text-lg font-bold text-stone-900">
            Remove and ban {name}?
          </AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="mt-2 text-sm text-stone-600">
            They are removed now and cannot join again until you lift the ban from the Admin tab.
          </AlertDialogPrimitive.Description>
          <div className="mt-4">
            <Label htmlFor={`${id}-reason`} className="mb-1.5">
              Reason <span className="font-normal text-stone-600">(optional, only admins see it)</span>
            </Label>
            <textarea
              id={`${id}-reason`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={300}
              rows={3}
              className={cn(inputClasses, "resize-y py-2")}
            />
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel className={buttonClasses({ variant: "secondary" })}>
              Cancel
            </AlertDialogPrimitive.Cancel>
            <AlertDialogPrimitive.Action
              className={buttonClasses({ variant: "danger" })}
              onClick={() => {
                if (member) onConfirm(member, reason);
                setReason("");
              }}
            >
              Remove and ban
            </AlertDialogPrimitive.Action>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
