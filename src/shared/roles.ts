/** Community roles and the permission matrix (SPEC §6): the one place both sides ask "may they?". */
import { POST_VISIBILITIES, type PostVisibility } from "./posts";

export const COMMUNITY_ROLES = ["owner", "admin", "moderator", "member", "guest"] as const;
export type CommunityRole = (typeof COMMUNITY_ROLES)[number];

export const ROLE_RANK: Record<CommunityRole, number> = { owner: 4, admin: 3, moderator: 2, member: 1, guest: 0 };

export const ROLE_LABELS: Record<CommunityRole, string> = {
  owner: "Owner",
  admin: "Admin",
  moderator: "Moderator",
  member: "Member",
  guest: "Guest",
};

export const PERMISSIONS = {
  create_post: ["owner", "admin", "moderator", "member"],
  edit_own_post: ["owner", "admin", "moderator", "member"],
  delete_own_post: ["owner", "admin", "moderator", "member"],
  delete_any_post: ["owner", "admin", "moderator"],
  moderate_posts: ["owner", "admin", "moderator"],
  invite_members: ["owner", "admin"],
  remove_members: ["owner", "admin"],
  change_roles: ["owner", "admin"],
  edit_community: ["owner", "admin"],
  manage_settings: ["owner", "admin"],
  ban_users: ["owner", "admin"],
  view_analytics: ["owner", "admin"],
  delete_community: ["owner"],
  /** Revenue, the payments export and payouts: admins manage settings, but the money is the owner's. */
  view_revenue: ["owner"],
  manage_courses: ["owner", "admin"],
  /** Creating, editing and cancelling calendar events (issue 19): those who run the community, as with courses. */
  manage_events: ["owner", "admin"],
} as const satisfies Record<string, readonly CommunityRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether a role (null: not a member, or signed out) holds a permission. */
export function can(role: CommunityRole | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly CommunityRole[]).includes(role);
}

/** Every permission a role holds, for the client to show or hide controls. */
export function permissionsOf(role: CommunityRole | null | undefined): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => can(role, p));
}

export const isRole = (value: unknown): value is CommunityRole =>
  typeof value === "string" && (COMMUNITY_ROLES as readonly string[]).includes(value);

/** Whether a role may see the Admin tab, the setup page and drafts (owner, admin). */
export const isManager = (role: CommunityRole | null | undefined) => role === "owner" || role === "admin";

/**
 * Who may read a post of a visibility (SPEC §6), for a viewer who may see its community: public
 * to all, members to members (any role), admins to owner and admin. The one rule: the API's checks,
 * the feed, the live stream and the SQL of every query (postVisibleToRole on the server) follow it.
 */
export function mayViewPost(role: CommunityRole | null | undefined, visibility: PostVisibility): boolean {
  if (visibility === "public") return true;
  if (!role) return false;
  return visibility === "members" || ROLE_RANK[role] >= ROLE_RANK.admin;
}

const visibilitiesOf = (role: CommunityRole | null) => POST_VISIBILITIES.filter((v) => mayViewPost(role, v));
const VISIBLE_TO_ANONYMOUS = visibilitiesOf(null);
const VISIBLE_TO = new Map(COMMUNITY_ROLES.map((role) => [role, visibilitiesOf(role)]));

/** The post visibilities a role (null: not a member) may read, widest first (mayViewPost, computed once). */
export const visibleTo = (role: CommunityRole | null | undefined): readonly PostVisibility[] =>
  (role && VISIBLE_TO.get(role)) || VISIBLE_TO_ANONYMOUS;

export type RoleChangeRefusal =
  | "insufficient" // actor below admin
  | "self" // actors never change their own role
  | "not_below" // the target is not ranked strictly below the actor
  | "owner_only" // only an owner assigns owner
  | "guest"; // guest is never assigned from the members table

/**
 * The members-table rule (SPEC §6): at least admin; never yourself; only others ranked strictly
 * below you; only an owner assigns owner; never guest. Returns why not, or null when allowed.
 */
export function roleChangeRefusal(input: {
  actorRole: CommunityRole | null | undefined;
  targetRole: CommunityRole;
  newRole: CommunityRole;
  isSelf: boolean;
}): RoleChangeRefusal | null {
  const { actorRole, targetRole, newRole, isSelf } = input;
  if (!can(actorRole, "change_roles") || !actorRole) return "insufficient";
  if (isSelf) return "self";
  if (newRole === "owner" && actorRole !== "owner") return "owner_only";
  if (newRole === "guest") return "guest";
  if (ROLE_RANK[targetRole] >= ROLE_RANK[actorRole]) return "not_below";
  return null;
}

/** The roles an actor may pick for a target in the members table (empty when the row is locked). */
export function assignableRoles(
  actorRole: CommunityRole | null | undefined,
  targetRole: CommunityRole,
  isSelf: boolean,
) {
  return COMMUNITY_ROLES.filter(
    (newRole) => newRole !== targetRole && roleChangeRefusal({ actorRole, targetRole, newRole, isSelf }) === null,
  );
}

/** Remove or ban: the same hierarchy — at least admin, never yourself, only those ranked strictly below. */
export function mayRemoveMember(
  actorRole: CommunityRole | null | undefined,
  targetRole: CommunityRole,
  isSelf: boolean,
) {
  if (!actorRole || isSelf || !can(actorRole, "remove_members")) return false;
  return ROLE_RANK[targetRole] < ROLE_RANK[actorRole];
}

/**
 * Leaving (SPEC §2, §4, §6): a member leaves; an owner only while another owner remains, so the
 * community always keeps one (an owner who wants to go first makes someone else owner).
 */
export function mayLeaveCommunity(role: CommunityRole | null | undefined, ownerCount: number): boolean {
  if (!role) return false;
  return role !== "owner" || ownerCount > 1;
}
