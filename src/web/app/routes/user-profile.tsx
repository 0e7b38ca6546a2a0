import { useParams } from "react-router";
import { PublicProfilePage } from "#web/features/profiles/components/public-profile-page";

export function UserProfileRoute() {
  const { username = "" } = useParams();
  return <PublicProfilePage key={username} username={username} />;
}
