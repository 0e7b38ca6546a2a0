export type EditProfileTab = "profile" | "notifications" | "security";

export const EDIT_PROFILE_EVENT = "hearth:edit-profile";

/** Opens the Edit Profile dialog of the app shell, from anywhere. */
export function openEditProfile(tab: EditProfileTab = "profile"): void {
  window.dispatchEvent(new CustomEvent<{ tab: EditProfileTab }>(EDIT_PROFILE_EVENT, { detail: { tab } }));
}
