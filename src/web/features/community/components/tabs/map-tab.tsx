import { Map as MapIcon } from "lucide-react";
import { EmptyState } from "#web/components/empty-state";

export function MapTab() {
  return (
    <EmptyState icon={MapIcon} title="Map coming soon">
      <p>See where your fellow members are around the world. The member map is coming soon.</p>
    </EmptyState>
  );
}
