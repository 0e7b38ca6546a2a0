import { CalendarDays, Crown, Globe, Lock, ScrollText, Tag, Users } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { categoryLabel } from "#shared/communities";
import { priceText } from "#shared/money";
import { formatCount } from "#shared/format";
import { Avatar } from "#web/components/ui/avatar";
import type { CommunityView } from "#web/features/communities";

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric" });

/** Description, the community's own rules, the creator and the facts. */
export function AboutTab({ community: c }: { community: CommunityView }) {
  const category = categoryLabel(c.category);
  return (
    <div className="space-y-6">
      <section
        aria-labelledby="about-description"
        className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
      >
        <h2 id="about-description" className="text-lg font-bold tracking-tight text-stone-900">
          About {c.name}
        </h2>
        <p className="mt-3 leading-relaxed whitespace-pre-line text-stone-800">
          {c.description || "No description yet."}
        </p>
        <dl className="mt-6 grid gap-x-6 gap-y-4 border-t border-stone-100 pt-6 text-sm sm:grid-cols-2">
          <Fact icon={c.visibility === "private" ? Lock : Globe} term="Visibility">
            {c.visibility === "private" ? "Private: members join by invitation" : "Public: anyone can join"}
          </Fact>
          <Fact icon={Tag} term="Category">
            {category ?? "Not set"}
          </Fact>
          <Fact icon={Crown} term="Membership">
            {c.type === "paid" ? priceText(c.type, c.price, c.currency) : "Free"}
          </Fact>
          <Fact icon={Users} term="Members">
            {formatCount(c.member_count)}
          </Fact>
          <Fact icon={CalendarDays} term="Created">
            <time dateTime={c.created_at}>{dateFormat.format(new Date(c.created_at))}</time>
          </Fact>
        </dl>
      </section>

      <section
        aria-labelledby="about-rules"
        className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
      >
        <h2 id="about-rules" className="flex items-center gap-2 text-lg font-bold tracking-tight text-stone-900">
          <ScrollText className="size-5 text-brand-700" aria-hidden="true" />
          Community rules
        </h2>
        {c.rules.length === 0 ? (
          <p className="mt-3 text-stone-600">No rules yet</p>
        ) : (
          <ol className="mt-4 space-y-3">
            {c.rules.map((rule, index) => (
              <li key={index} className="flex gap-3">
                <span
                  className="flex size-7 shrink-0 items-center justify-center rounded-full bg-stone-900 text-xs font-bold text-white"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <span className="pt-0.5 leading-relaxed text-stone-800">{rule}</span>
              </li>
            ))}
          </ol>
        )}
      </section>

      {c.creator && (
        <section
          aria-labelledby="about-creator"
          className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
        >
          <h2 id="about-creator" className="text-lg font-bold tracking-tight text-stone-900">
            Creator
          </h2>
          <Link
            to={`/u/${encodeURIComponent(c.creator.username)}`}
            className="group mt-4 flex items-center gap-4 rounded-2xl p-2 -m-2 transition-colors hover:bg-stone-50"
          >
            <Avatar src={c.creator.avatar_url} name={c.creator.full_name || c.creator.username} size="lg" />
            <span className="min-w-0">
              <span className="block font-semibold text-stone-900 group-hover:underline">
                {c.creator.full_name || c.creator.username}
              </span>
              <span className="block text-sm text-stone-600">@{c.creator.username}</span>
            </span>
          </Link>
        </section>
      )}
    </div>
  );
}

function Fact({ icon: Icon, term, children }: { icon: typeof Globe; term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="flex items-center gap-2 font-medium text-stone-600">
        <Icon className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
        {term}
      </dt>
      <dd className="mt-0.5 pl-6 text-stone-900">{children}</dd>
    </div>
  );
}
