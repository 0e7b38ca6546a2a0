import { sql } from "drizzle-orm";
import type { DemoAccount, SeededCommunity, Tx } from "./communities";

const MINUTE = 60 * 1000;

/** One demo conversation: who writes each line (a or b), how long ago, and how many of the last lines the reader has not read. */
type DemoConversation = {
  lines: [from: "a" | "b", minutesAgo: number, text: string][];
  /** The last `unread` lines (all by the other person) are unread by this side. */
  unread?: { side: "a" | "b"; count: number };
};

const WITH_OWNER_AND_MEMBER: DemoConversation = {
  lines: [
    ["b", 60 * 26, "Hi Olivia! Thanks for the welcome post, I'm glad to be here."],
    ["a", 60 * 25, "Welcome, Max! Tell me if anything in the courses is unclear."],
    ["b", 60 * 3, "Quick question: is the next live session recorded? I might miss it."],
    ["a", 40, "Yes, the recording goes into the course within a day. See https://hearth.test/ for the schedule."],
  ],
  unread: { side: "b", count: 1 },
};

const TO_OWNER: DemoConversation[] = [
  {
    lines: [
      ["b", 90, "Hello! I loved your last post about getting started."],
      ["b", 85, "Would you be open to a short interview for my newsletter?"],
    ],
    unread: { side: "a", count: 2 },
  },
  {
    lines: [
      ["b", 60 * 50, "Could you pin the event schedule? People keep asking."],
      ["a", 60 * 49, "Good idea, done. Thanks for the nudge!"],
    ],
  },
];

const TO_MEMBER: DemoConversation[] = [
  {
    lines: [
      ["b", 60 * 30, "Hey Max, are you doing the weekly challenge too?"],
      ["a", 60 * 29, "I am! Halfway through the second lesson."],
      ["b", 20, "Nice. Want to compare notes on Friday?"],
    ],
    unread: { side: "a", count: 1 },
  },
];

const BETWEEN_MEMBERS: DemoConversation[] = [
  {
    lines: [
      ["a", 60 * 72, "Your comment on the feedback thread was spot on."],
      ["b", 60 * 70, "Thank you! It took me a while to learn that the hard way."],
      ["a", 60 * 69, "Same here. Let me know when you post your next project."],
    ],
  },
  {
    lines: [
      ["a", 60 * 8, "Are you going to the meetup next week?"],
      ["b", 60 * 7, "Planning to. Do you want to share a ride?"],
    ],
    unread: { side: "a", count: 1 },
  },
];

/** Plain members of a community, in a fixed order (the same people on every start). */
const plainMembers = (c: SeededCommunity, not: string[]) =>
  c.members
    .filter((m) => m.role === "member" && !not.includes(m.userId))
    .map((m) => m.userId)
    .sort();

/**
 * Demo direct messages (issue 22): the demo owner and member write to each other and to members of
 * their communities (some unread: the header's badge shows them on first sign-in), and members
 * write to each other. Inserted as the service stores them (conversation, both sides' read marks
 * and unread counts, messages in order); no digest is queued for them. Returns how many
 * conversations and messages were made.
 */
export async function seedMessages(input: {
  tx: Tx;
  seeded: SeededCommunity[];
  accounts: Record<DemoAccount, { id: string }>;
  now: number;
}): Promise<{ conversations: number; messages: number }> {
  const { tx, seeded, accounts, now } = input;
  const owner = accounts.owner.id;
  const member = accounts.member.id;
  const has = (c: SeededCommunity, id: string) => c.members.some((m) => m.userId === id);
  const shared = seeded.find((c) => has(c, owner) && has(c, member) && plainMembers(c, [owner, member]).length >= 3);
  const ownersOwn = seeded.find((c) => has(c, owner) && plainMembers(c, [owner, member]).length >= 6);
  if (!shared || !ownersOwn) throw new Error("No demo community for the demo messages");
  const people = plainMembers(ownersOwn, [owner, member]);
  const memberPeople = plainMembers(shared, [owner, member, ...people.slice(0, 2)]);

  const pairs: [string, string, DemoConversation][] = [
    [owner, member, WITH_OWNER_AND_MEMBER],
    [owner, people[0], TO_OWNER[0]],
    [owner, people[1], TO_OWNER[1]],
    [member, memberPeople[0], TO_MEMBER[0]],
    [people[2], people[3], BETWEEN_MEMBERS[0]],
    [people[4], people[5], BETWEEN_MEMBERS[1]],
  ];
  let messages = 0;
  for (const [a, b, conversation] of pairs) messages += await insertConversation(tx, a, b, conversation, now);
  return { conversations: pairs.length, messages };
}

async function insertConversation(tx: Tx, a: string, b: string, demo: DemoConversation, now: number) {
  const senders = demo.lines.map(([from]) => (from === "a" ? a : b));
  const times = demo.lines.map(([, minutesAgo]) => new Date(now - minutesAgo * MINUTE).toISOString());
  const bodies = demo.lines.map(([, , text]) => text);
  const unreadSide = demo.unread ? (demo.unread.side === "a" ? a : b) : null;
  const unread = demo.unread?.count ?? 0;
  await tx.execute(sql`
    WITH c AS (
      INSERT INTO conversations (user_low, user_high, created_at)
      VALUES (least(${a}::text, ${b}::text), greatest(${a}::text, ${b}::text), ${times[0]}::timestamptz)
      RETURNING id
    ), m AS (
      INSERT INTO direct_messages (conversation_id, sender_id, body, created_at)
      SELECT c.id, x.sender, x.body, x.at
        FROM c, unnest(${sql.param(senders)}::text[], ${sql.param(bodies)}::text[], ${sql.param(times)}::timestamptz[])
             WITH ORDINALITY AS x(sender, body, at, n)
       ORDER BY x.n
      RETURNING id, conversation_id, seq, sender_id, created_at
    ), ranked AS (
      SELECT m.*, row_number() OVER (ORDER BY m.seq DESC) AS from_end FROM m
    ), last AS (
      SELECT * FROM ranked WHERE from_end = 1
    )
    INSERT INTO conversation_members
      (conversation_id, user_id, other_user_id, last_read_seq, unread_count, unread_since, last_message_at)
    SELECT last.conversation_id, side.u, side.o,
           CASE WHEN side.u = ${unreadSide}::text
                THEN coalesce((SELECT max(seq) FROM ranked WHERE from_end > ${unread}), 0) ELSE last.seq END,
           CASE WHEN side.u = ${unreadSide}::text THEN ${unread} ELSE 0 END,
           CASE WHEN side.u = ${unreadSide}::text
                THEN (SELECT min(created_at) FROM ranked WHERE from_end <= ${unread}) END,
           last.created_at
      FROM last, (VALUES (${a}::text, ${b}::text), (${b}::text, ${a}::text)) AS side(u, o)`);
  // The conversation's newest message (a statement of its own: the one above cannot change rows it inserted).
  await tx.execute(sql`
    UPDATE conversations c SET last_message_id = m.id, last_message_at = m.created_at
      FROM (SELECT id, conversation_id, created_at FROM direct_messages
             WHERE conversation_id = (SELECT id FROM conversations
                                       WHERE user_low = least(${a}::text, ${b}::text) AND user_high = greatest(${a}::text, ${b}::text))
             ORDER BY seq DESC LIMIT 1) m
     WHERE c.id = m.conversation_id`);
  return demo.lines.length;
}
