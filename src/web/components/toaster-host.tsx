import { lazy, Suspense, useSyncExternalStore } from "react";
import { loadSonner, onToasterWanted, toasterWanted } from "#web/lib/toast";

const Toaster = lazy(() => loadSonner().then(({ Toaster }) => ({ default: Toaster })));

/** The one toaster, mounted on the first toast (lib/toast.ts). */
export function ToasterHost() {
  const wanted = useSyncExternalStore(onToasterWanted, toasterWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="bottom-right"
        closeButton
        toastOptions={{
          duration: 4000,
          classNames: {
            toast: "!rounded-xl !border-stone-200 !text-stone-900 !shadow-lg",
            success: "[&_[data-icon]]:!text-emerald-700",
            error: "[&_[data-icon]]:!text-red-700",
          },
        }}
      />
    </Suspense>
  );
}
