import { Logo } from "./logo";

export function Footer() {
  return (
    <footer className="border-t border-stone-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-stone-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <Logo className="opacity-90" />
        <p>A home for your community, hosted on your own terms.</p>
        <p>© {new Date().getFullYear()} Hearth</p>
      </div>
    </footer>
  );
}
