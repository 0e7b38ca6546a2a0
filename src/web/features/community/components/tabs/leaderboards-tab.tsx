import { Trophy } from "lucide-react";
import { EmptyState } from "../empty-state";

export function LeaderboardsTab() {
  return (
    <EmptyState icon={Trophy} title="No leaderboard yet">
      <p>
        Leaderboards rank members by the likes their posts and comments receive. They start counting once likes and
        comments arrive in the feed.
      </p>
    </EmptyState>
  );
}
