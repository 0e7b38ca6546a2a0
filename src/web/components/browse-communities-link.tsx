import { Compass } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "./ui/button";

/** The way back to the directory from a dead end (not found, private, empty lists). */
export function BrowseCommunitiesLink({ variant = "primary" }: { variant?: "primary" | "secondary" }) {
  return (
    <Link to="/" className={buttonClasses({ variant })}>
      <Compass className="size-4" aria-hidden="true" />
      Browse communities
    </Link>
  );
}
