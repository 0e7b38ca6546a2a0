import { MessageCircle } from "./icons";
import { SignInPrompt } from "#web/components/sign-in-prompt";
import { Spinner } from "#web/components/ui/spinner";
import { cn } from "#web/lib/cn";
import { useSignInOnArrival } from "#web/lib/use-sign-in-on-arrival";
import { messagesHref } from "#shared/messaging";
import { ConversationView } from "./conversation-view";
import { InboxList } from "./inbox-list";

/**
 * /messages and /messages/:id: the inbox beside the open conversation on wide screens; on a phone
 * one at a time (the conversation has a way back).
 */
export function MessagesPage({ conversationId }: { conversationId?: string }) {
  const sign = {
    mode: "login",
    redirect: messagesHref(conversationId),
    message: "Sign in to see your messages.",
  } as const;
  const { me, signedOut } = useSignInOnArrival(sign);
  const meId = me.data?.user?.id;

  if (me.isPending)
    return (
      <main id="main" className="flex min-h-[60vh] items-center justify-center">
        <Spinner label="Loading messages" />
      </main>
    );
  if (signedOut || !meId)
    return (
      <main id="main" className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <title>Messages · Hearth</title>
        <h1 className="sr-only">Messages</h1>
        <SignInPrompt request={sign} title="Sign in to see your messages">
          Your conversations with members of your communities are gathered here.
        </SignInPrompt>
      </main>
    );

  return (
    <main id="main" className="mx-auto max-w-6xl sm:px-6 sm:py-6">
      {!conversationId && <title>Messages · Hearth</title>}
      <div className="grid h-[calc(100dvh-4rem)] grid-cols-1 overflow-hidden bg-white sm:h-[calc(100dvh-7rem)] sm:rounded-2xl sm:shadow-sm sm:ring-1 sm:ring-stone-200 md:grid-cols-[20rem_1fr] lg:grid-cols-[22rem_1fr]">
        <div className={cn("min-h-0 border-stone-200 md:border-r", conversationId && "max-md:hidden")}>
          <InboxList meId={meId} activeId={conversationId} />
        </div>
        <div className={cn("min-h-0", !conversationId && "max-md:hidden")}>
          {conversationId ? (
            <ConversationView conversationId={conversationId} meId={meId} />
          ) : (
            <div className="flex h-full flex-col items-center justify-center gap-3 bg-stone-50 p-8 text-center">
              <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
                <MessageCircle className="size-7" aria-hidden="true" />
              </span>
              <p className="font-semibold text-stone-900">Your messages</p>
              <p className="max-w-xs text-sm text-stone-600">
                Choose a conversation, or start one from a member's profile or a community's members list.
              </p>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
