import { Link } from "react-router";
import { Logo } from "#web/components/layout/logo";
import { FOOTER_LISTS } from "../data";

/** /free-trial's footer: Product, Company, Resources and Legal lists (SPEC §2). */
export function FunnelFooter() {
  return (
    <footer className="border-t border-stone-800 bg-stone-950 text-stone-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.2fr_2fr]">
        <div>
          <Logo className="[&>span:last-child]:text-white" />
          <p className="mt-4 max-w-xs text-sm text-stone-400">
            A home for your community: courses, conversations and members in one place you own.
          </p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {FOOTER_LISTS.map((list) => (
            <div key={list.title}>
              <h2 className="text-sm font-semibold text-white">{list.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {list.links.map((link) => (
                  <li key={link.label}>
                    {link.to ? (
                      link.to.startsWith("/api/") ? (
                        <a href={link.to} className="hover:text-white hover:underline">
                          {link.label}
                        </a>
                      ) : (
                        <Link to={link.to} className="hover:text-white hover:underline">
                          {link.label}
                        </Link>
                      )
                    ) : (
                      <span className="text-stone-400">{link.label}</span>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t border-stone-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-stone-400 sm:px-6">
          © {new Date().getFullYear()} Hearth. Figures and stories on this page are illustrative.
        </p>
      </div>
    </footer>
  );
}
