import { Bell, ShieldCheck, UserRound } from "lucide-react";
import { useCallback, useState } from "react";
import { Link } from "react-router";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { DiscardChangesDialog } from "#web/components/ui/discard-changes-dialog";
import { Spinner } from "#web/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import type { EditProfileTab } from "#web/lib/edit-profile-events";
import { useMe } from "#web/lib/session";
import { NotificationsTab } from "./notifications-tab";
import { ProfileTab } from "./profile-tab";
import { SecurityTab } from "./security-tab";

/** Edit Profile (SPEC §2): tabs Profile, Notifications, Security; closing with unsaved changes asks first. */
export function EditProfileDialog({
  open,
  onOpenChange,
  initialTab,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialTab: EditProfileTab;
}) {
  const me = useMe();
  const [tab, setTab] = useState<EditProfileTab>(initialTab);
  const [profileDirty, setProfileDirty] = useState(false);
  const [securityDirty, setSecurityDirty] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const onProfileDirty = useCallback((dirty: boolean) => setProfileDirty(dirty), []);
  const onSecurityDirty = useCallback((dirty: boolean) => setSecurityDirty(dirty), []);

  const requestOpenChange = (next: boolean) => {
    if (next) return onOpenChange(true);
    if (profileDirty || securityDirty) setConfirming(true);
    else onOpenChange(false);
  };

  const user = me.data?.user;
  const profile = me.data?.profile;

  return (
    <>
      <Dialog open={open} onOpenChange={requestOpenChange}>
        <DialogContent
          size="lg"
          title="Edit profile"
          description={
            <>
              Choose how others see you, how Hearth keeps you posted, and how you sign in. Subscriptions and receipts
              are in{" "}
              <Link to="/billing" onClick={() => onOpenChange(false)} className="font-medium text-brand-800 underline">
                Billing
              </Link>
              .
            </>
          }
        >
          {!user || !profile ? (
            <div className="flex justify-center py-16">
              <Spinner label="Loading your profile" />
            </div>
          ) : (
            <Tabs value={tab} onValueChange={(value) => setTab(value as EditProfileTab)} className="mt-5">
              <TabsList aria-label="Edit profile sections">
                <TabsTrigger value="profile">
                  <UserRound className="size-4" aria-hidden="true" />
                  Profile
                </TabsTrigger>
                <TabsTrigger value="notifications">
                  <Bell className="size-4" aria-hidden="true" />
                  Notifications
                </TabsTrigger>
                <TabsTrigger value="security">
                  <ShieldCheck className="size-4" aria-hidden="true" />
                  Security
                </TabsTrigger>
              </TabsList>
              <TabsContent value="profile">
                <ProfileTab profile={profile} email={user.email} onDirtyChange={onProfileDirty} />
              </TabsContent>
              <TabsContent value="notifications">
                <NotificationsTab />
              </TabsContent>
              <TabsContent value="security">
                <SecurityTab
                  email={user.email}
                  twoFactorEnabled={user.two_factor_enabled}
                  onDirtyChange={onSecurityDirty}
                />
              </TabsContent>
            </Tabs>
          )}
        </DialogContent>
      </Dialog>
      <DiscardChangesDialog
        open={confirming}
        onOpenChange={setConfirming}
        description="You have changes that are not saved yet. If you close now, they will be lost."
        onDiscard={() => onOpenChange(false)}
      />
    </>
  );
}
